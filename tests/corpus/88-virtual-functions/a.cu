// Virtual functions: each file has its own weak copy of the base class's
// vtable in .nv.global.init; nvlink keeps both copies' bytes but drops the
// relocations of the copy that lost. Calls through the vtable are indirect
// call sites, one record per prototype.
struct Shape {
    __device__ virtual float area() const { return 0.0f; }
    __device__ virtual float scale(float s) const { return s; }
    __device__ virtual int kind(int x) const { return x; }
};
struct Square : Shape {
    float s;
    __device__ Square(float x) : s(x) {}
    __device__ float area() const override { return s * s; }
};
__device__ Shape *make_circle(float r, void *where);

__global__ void shapes(float *o, float v, int x)
{
    Square sq(v);
    __align__(16) char buf[64];
    Shape plain;
    Shape *p = o[0] > 0 ? (Shape *)&sq : o[0] < 0 ? &plain : make_circle(v, buf);
    o[1] = p->area() + p->scale(2.0f) + p->kind(x);
}
