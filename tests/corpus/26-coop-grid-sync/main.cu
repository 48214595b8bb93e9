#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ void two_phase(int *data, int n);

__global__ void coop_kernel(int *data, int n)
{
    cg::grid_group g = cg::this_grid();
    data[g.thread_rank() % n] = 1;
    g.sync();
    two_phase(data, n);
}
