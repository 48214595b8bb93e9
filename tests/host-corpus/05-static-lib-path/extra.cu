// 05-static-lib-path: extra.cu - a second rdc object that also calls into
// the library, so two objects resolve against the same archive members.
__device__ float vec_axpy(float a, float x, float y);

__global__ void extra_kernel(float *p)
{
    p[threadIdx.x] = vec_axpy(0.5f, p[threadIdx.x], 1.0f);
}
