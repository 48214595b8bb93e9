// A second local `sin`: on sm_100+ nvlink zeroes its register ranges, as
// those of a name an earlier unit gave.
__global__ void kd(double *p) { p[threadIdx.x] = sin(p[threadIdx.x]) * 3.0; }
