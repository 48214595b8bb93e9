#include "shape.h"
__global__ void kb(float *out) {
    Shape *p = new Shape(out[threadIdx.x] + 1.0f);
    out[threadIdx.x] = areaOf(p) * 2.0f;
    delete p;
}
