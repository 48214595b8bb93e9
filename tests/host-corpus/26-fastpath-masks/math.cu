// sinf makes ptxas give this unit CAN_FASTPATH_FINALIZE 0x1 on sm_100 (the
// plain unit gets 0x9): nvlink's mask for the link is not modelled.
__global__ void wave(int *o) { o[threadIdx.x] = __float2int_rn(100.0f * sinf((float)o[threadIdx.x])); }
void launchMath(int *o) { wave<<<1, 32>>>(o); }
