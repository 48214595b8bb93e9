// sin() brings libdevice's local `sin` and its slow path into this unit.
__device__ double cw(double x) { return sin(x) * 2.0; }
__global__ void kc(double *p) { p[threadIdx.x] = sin(p[threadIdx.x]) + cw(p[1]); }
