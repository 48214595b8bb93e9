#include <new>
struct Shape {
    __device__ virtual float area() const { return 0.0f; }
    __device__ virtual float scale(float s) const { return s; }
    __device__ virtual int kind(int x) const { return x; }
};
struct Circle : Shape {
    float r;
    __device__ Circle(float x) : r(x) {}
    __device__ float area() const override { return 3.14159f * r * r; }
    __device__ float scale(float s) const override { return s * r; }
    __device__ int kind(int x) const override
    {
        switch (x) { case 0: return 5; case 1: return 9; case 2: return 14; case 3: return 20; case 4: return 27; case 5: return 35; case 6: return 44; case 7: return 54; default: return -1; }
    }
};
__device__ Shape *make_circle(float r, void *where)
{
    if (r < 0)
        return new (where) Shape();
    return new (where) Circle(r);
}
