// Several static __shared__ variables of different and equal sizes/alignments in
// kernels and in device functions: nvlink's order (its list merge sort).
__device__ __noinline__ int dev(int x) {
    __shared__ int p[2];
    __shared__ int q[10];
    __shared__ int r[5];
    __shared__ char s[3];
    __shared__ double t[1];
    __shared__ char u[40];
    p[threadIdx.x%2]=x; q[threadIdx.x%10]=x; r[threadIdx.x%5]=x; s[threadIdx.x%3]=x; t[0]=x; u[threadIdx.x%40]=x;
    __syncthreads();
    return p[1]+q[1]+r[1]+s[1]+t[0]+u[3];
}
__global__ void k(int *o) {
    __shared__ int x[2];
    __shared__ int y[10];
    __shared__ int z[5];
    __shared__ int w[1];
    __shared__ char c[40];
    __shared__ double d[1];
    x[threadIdx.x%2]=o[0]; y[threadIdx.x%10]=o[1]; z[threadIdx.x%5]=o[2]; w[0]=o[3]; c[threadIdx.x%40]=o[4]; d[0]=o[5];
    __syncthreads();
    o[threadIdx.x] = x[1]+y[1]+z[1]+w[0]+c[5]+d[0] + dev(o[3]);
}
__global__ void k2(int *o) { o[0] = dev(o[1]); }
__device__ __noinline__ int g(int x) { __shared__ short e[6]; __shared__ int h[3]; __shared__ char i[12]; e[threadIdx.x%6]=x; h[threadIdx.x%3]=x; i[threadIdx.x%12]=x; __syncthreads(); return e[3]+h[1]+i[2]; }
__device__ __noinline__ int f(int x) { __shared__ int a[3]; __shared__ int b[3]; __shared__ char c[12]; a[threadIdx.x%3]=x; b[threadIdx.x%3]=x; c[threadIdx.x%12]=x; __syncthreads(); return a[1]+b[1]+c[1]; }
__global__ void K1(int *o) {
  __shared__ int x[3]; __shared__ char z[12]; __shared__ int y[3]; __shared__ short w[6]; __shared__ int v[3];
  x[threadIdx.x%3]=o[0]; y[threadIdx.x%3]=o[1]; z[threadIdx.x%12]=o[2]; w[threadIdx.x%6]=o[3]; v[threadIdx.x%3]=o[4];
  __syncthreads();
  o[0] = f(o[1]) + g(o[2]) + x[1]+y[1]+z[1]+w[1]+v[1]; }
__global__ void K2(int *o) { o[0] = g(o[1]) + f(o[2]); }
