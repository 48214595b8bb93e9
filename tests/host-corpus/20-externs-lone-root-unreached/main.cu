// on_stack, the only kernel launched, calls only f() through the vtables of
// its stack objects. nvlink still lists free (the deleting destructors the
// vtables name) and vprintf (report, named by a table) in its EXTERNS: the
// lone root kernel of a link gets every undefined function of the output.
#include "shapes.h"

__global__ void on_stack(int *out)
{
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    D1 d1(i);
    D2 d2;
    Base *b = (out[i] & 1) ? (Base *)&d1 : (Base *)&d2;
    out[i] = b->f(out[i]);
}

int main()
{
    int *buf = nullptr;
    cudaMalloc(&buf, 4096 * sizeof(int));
    on_stack<<<1, 32>>>(buf);
    cudaDeviceSynchronize();
    cudaFree(buf);
    return 0;
}
