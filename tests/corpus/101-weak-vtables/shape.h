// An inline polymorphic class: every file that uses it carries a weak copy
// of its vtable (in .nv.global.init, with relocations to the methods).
struct Shape {
    float s;
    __device__ Shape(float v) : s(v) {}
    __device__ virtual float area() const { return s * s; }
    __device__ virtual ~Shape() {}
};

// Keeps the call virtual: the object's dynamic type is not known here.
__device__ __noinline__ static float areaOf(const Shape *p) { return p->area(); }
