__device__ __noinline__ float sample(cudaTextureObject_t t, float u, float v)
{
    return tex2D<float>(t, u, v) + tex2DLod<float>(t, u, v, 1.0f);
}
