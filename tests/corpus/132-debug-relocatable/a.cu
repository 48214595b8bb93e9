// -G, -g on sm_100+: pick() is a weak copy here, replaced by b.cu's strong
// definition. nvlink keeps the register ranges (.nv_debug_info_reg_sass) of
// the first function of each name and zeroes those of later ones -- here
// b.cu's pick, the winner. sm_90 keeps them all.
inline __device__ __noinline__ int pick(int x) { return x * 3 + 1; }
__global__ void ka(int *p) { p[threadIdx.x] = pick(p[threadIdx.x]); }
