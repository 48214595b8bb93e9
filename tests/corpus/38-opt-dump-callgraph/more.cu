// Names nvlink's demangler spells its own way: a reference to the member's
// own class ("const ns::Vec&"), a lambda, a parameter pack.
namespace ns {
struct Vec { int x; __device__ __noinline__ bool operator<(const Vec &o) const { return x < o.x; } };
template <typename F> __device__ __noinline__ int apply(F f, int x) { return f(x); }
template <typename T, typename... Ts> __device__ __noinline__ const T *first(const T *p, Ts *... rest) { return p + sizeof...(Ts); }
}
__global__ void root_c(int *p) {
  ns::Vec a{p[0]}, b{p[1]};
  p[2] = (a < b) + ns::apply([](int v) { return v * 3; }, p[3]) + *ns::first(p, p, (float *)0);
}
