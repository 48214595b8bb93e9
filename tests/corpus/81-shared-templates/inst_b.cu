#include "tshared.h"
template __global__ void tk<float, 64>(float *);
template __global__ void tk<int, 256>(int *);
__global__ void kb(double *o) { o[0] = tsum<double, 16>(o[1]) + tsum<int, 32>(o[2]); }
