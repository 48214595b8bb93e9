// Kernels with many scalar parameters and an early return: before the
// return ptxas has all six scoreboard barriers pending and puts further
// parameter loads on busy ones, which nvlink re-derives on sm_100+ (two
// forced loads sharing a barrier, one joining the live group waited on
// last, one on the stack-pointer load's barrier, an LDCU.128 joining the
// forced load read by the same instruction). From the difftest generator.
__global__ void k34_3(long long *out, long long p0, int p1, long long p2, long long p3, int p4, long long p5, int p6, int p7, int p8, int p9) { long long t = threadIdx.x + blockIdx.x*(long long)blockDim.x; long long e = p7*8 + p1*7 + p8*4 + p5*4 + p0*8 + p2*7; if (t >= e) return; out[t] = t*9 + p3*t + p4*t + p6*t + p9*t; out[t+1] = e; }
__global__ void k9_0(long long *out, int p0, long long p1, long long p2, int p3, long long p4, long long p5, int p6, long long p7, int p8) { long long t = threadIdx.x + blockIdx.x*(long long)blockDim.x; long long e = p0*4 + p6*5 + p1*2 + p5*3 + p3*4 + p4*3 + p8*8; if (t >= e) return; out[t] = t*3 + p2*t + p7*t; }
__global__ void k31_3(long long *out, int p0, long long p1, long long p2, long long p3, int p4, long long p5, int p6, int p7, long long p8, long long p9) { long long t = threadIdx.x + blockIdx.x*(long long)blockDim.x; long long e = p3*3 + p1*6 + p7*3 + p8*3 + p2*5 + p9*5 + p4*7 + p0*4; if (t >= e) return; out[t] = t*4 + p5*t + p6*t; out[t+1] = e; }
__global__ void k20_2(long long *out, long long p0, int p1, int p2, int p3, long long p4, int p5, long long p6, long long p7, int p8, long long p9, long long p10) { long long t = threadIdx.x + blockIdx.x*(long long)blockDim.x; long long e = p5*4 + p3*3 + p1*3 + p0*6 + p4*2 + p8*7 + p9*8 + p10*9; if (t >= e) return; out[t] = t*2 + p2*t + p6*t + p7*t; }
