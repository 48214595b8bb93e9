// tw<int> and tw<double> lose to a.cu's (their banks follow the winners'
// up to sm_89); tw<unsigned> is this unit's alone.
#include "tw.h"
__global__ void kern1(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    out[i] += (int)tw<int>((int)out[i]);
    out[i] += (int)tw<unsigned>((unsigned)out[i]);
    out[i] += (int)tw<double>((double)out[i]);
}
