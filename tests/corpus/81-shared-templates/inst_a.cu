#include "tshared.h"
template __global__ void tk<float, 64>(float *);
template __global__ void tk<double, 128>(double *);
__global__ void ka(int *o) { o[0] = tsum<int, 32>(o[1]) + tsum<char, 8>(o[2]); }
