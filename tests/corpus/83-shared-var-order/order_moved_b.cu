__device__ __noinline__ int mv_g(int x) { __shared__ int q[3]; __shared__ int r[3]; q[threadIdx.x%3]=x; r[threadIdx.x%3]=x; __syncthreads(); return q[1]+r[2]; }
