extern __managed__ int m_total;
__managed__ float m_values[32];

__global__ void accumulate()
{
    atomicAdd(&m_total, (int)m_values[threadIdx.x & 31]);
}
