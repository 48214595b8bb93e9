// 09-no-device-code: hostonly.cu - compiled by nvcc -rdc=true -c but has
// no __device__/__global__ code.
int host_sum(const int *v, int n)
{
    int s = 0;
    for (int i = 0; i < n; ++i)
        s += v[i];
    return s;
}
