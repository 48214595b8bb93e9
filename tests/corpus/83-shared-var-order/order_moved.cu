__device__ __noinline__ int mv_f(int x) { __shared__ int m[3]; __shared__ int n[3]; __shared__ int p[3]; m[threadIdx.x%3]=x; n[threadIdx.x%3]=x; p[threadIdx.x%3]=x;__syncthreads(); return m[1]+n[2]+p[0]; }
extern __device__ int mv_g(int x);
__global__ void mv_K(int *o) {
  __shared__ int a[3]; __shared__ int b[3]; __shared__ int c[3];
  a[threadIdx.x%3]=o[0]; b[threadIdx.x%3]=o[1]; c[threadIdx.x%3]=o[1];
  __syncthreads();
  o[0] = mv_f(o[1]) + mv_g(o[2]) + a[1]+b[1]+c[2]; }
