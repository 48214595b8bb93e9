#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ int tile_sum(cg::thread_block_tile<16> t, int v)
{
    return cg::reduce(t, v, cg::plus<int>()) + t.shfl_down(v, 1) + t.ballot(v > 3);
}
