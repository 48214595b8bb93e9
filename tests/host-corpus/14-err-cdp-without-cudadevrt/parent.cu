// 14-err-cdp-without-cudadevrt: parent.cu - launches child from the device;
// no host code of the link launches parent.
__global__ void child(int *out, int base);

__global__ void parent(int *out, int n)
{
    if (threadIdx.x == 0)
        child<<<1, n>>>(out, 1);
}
