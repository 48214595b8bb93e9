#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ __noinline__ void two_phase(int *data, int n)
{
    cg::grid_group g = cg::this_grid();
    unsigned long long r = g.thread_rank();
    if (r < (unsigned long long)n)
        data[r] += data[(r + 1) % n];
    g.sync();
    if (r == 0)
        data[0] = (int)g.size();
}
