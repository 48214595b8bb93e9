__managed__ int m_total = 0;
__managed__ int m_flag;

__global__ void set_flag(int v)
{
    m_flag = v + m_total;
}
