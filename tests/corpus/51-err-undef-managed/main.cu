extern __managed__ int m_missing;
__global__ void k(int *p) { p[threadIdx.x] = m_missing; }
