// Two phases separated by a grid-wide barrier (cooperative launch).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void twoPhase(int *data, int *sums)
{
    cg::grid_group grid = cg::this_grid();
    int i = threadIdx.x + blockIdx.x * blockDim.x;
    data[i] = i * 3;
    grid.sync();
    sums[i] = data[(i + 1) % (int)grid.size()] + data[i];
}
