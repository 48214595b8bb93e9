// tw<int>, tw<float>, tw<double>: the winning copies.
#include "tw.h"
__global__ void kern0(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] += (int)tw<int>((int)out[i]);
    out[i] += (int)tw<float>((float)out[i]);
    out[i] += (int)tw<double>((double)out[i]);
}
