// A generated __trap() kernel (sm_100): six global loads in a row, the
// fifth sharing a write barrier with 2-5 taken while 1 is free.

__global__ void k4_3(int *p, int *q)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int v0 = p[i * 3 + 97];
    int v1 = p[i * 5 + 24];
    int v2 = p[i * 4 + 54];
    int v3 = p[i * 5 + 36];
    int v4 = p[i * 4 + 57];
    int v5 = p[i * 2 + 29];
    p[i] = v0 + v1 + v2 + v3 + v4 + v5;
    q[i + 1] = v0 * 3;
    if (v0 == 7) __trap();
    q[i + 3] = v0;
}
