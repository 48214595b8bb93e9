__global__ void km(int *out) { out[threadIdx.x] = 7; }

int main()
{
    km<<<1, 1>>>(nullptr);
    return 0;
}
