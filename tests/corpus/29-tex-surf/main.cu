__device__ float sample(cudaTextureObject_t t, float u, float v);

__global__ void tex_kernel(cudaTextureObject_t tex, cudaSurfaceObject_t surf, float *out, int w)
{
    int x = threadIdx.x, y = blockIdx.x;
    float s = sample(tex, x + 0.5f, y + 0.5f);
    float4 c = tex1Dfetch<float4>(tex, x);
    surf2Dwrite(s + c.x, surf, x * (int)sizeof(float), y);
    float r;
    surf2Dread(&r, surf, ((x + 1) % w) * (int)sizeof(float), y);
    out[y * w + x] = r;
}
