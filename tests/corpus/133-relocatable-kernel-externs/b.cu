// g() deletes through a virtual destructor: the deleting destructor calls free.
struct B { __device__ virtual ~B() {} int x; };
__device__ __noinline__ int g(int x) { B *b = new B; int r = b->x + x; delete b; return r; }
__global__ void k2(int *p) { p[0] = g(p[1]); }
