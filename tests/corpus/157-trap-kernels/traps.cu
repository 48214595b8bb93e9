// Kernels that trap: one whose trap starts the block a branch skips, one
// that stores before trapping.
__global__ void checkThenWork(int *p, int *q)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int a = p[i * 3 + 7];
    int b = p[i + 40];
    if (q[i] == 3)
        __trap();
    q[i + 1] = a * 3;
    p[i] = a + b;
}

__global__ void reportThenTrap(int *p, int *q)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    int a = p[i * 2 + 9];
    int b = p[i + 17];
    p[i] = a + b;
    if (a == 7) {
        q[0] = a;
        __trap();
    }
    q[i + 3] = b;
}
