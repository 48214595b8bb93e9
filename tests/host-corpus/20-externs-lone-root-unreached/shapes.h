// Classes with a virtual destructor: every unit that uses them gets weak
// copies of the vtables and of the deleting destructors, which call free.
struct Base {
    __device__ virtual int f(int x) { return x + 408; }
    __device__ virtual ~Base() {}
};
struct D1 : Base {
    int m;
    __device__ D1(int v) : m(v) {}
    __device__ int f(int x) override { return x * m + 582; }
};
struct D2 : Base {
    __device__ int f(int x) override { return x - 508; }
};
