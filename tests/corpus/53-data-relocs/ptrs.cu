typedef int (*fn_t)(int);
extern __device__ int target_arr[16];
extern __device__ int target_scalar;
__device__ int target_fn(int x);

struct entry { const char *name; int *data; fn_t fn; int tag; };

__device__ int *p_scalar = &target_scalar;
__device__ int *p_mid = &target_arr[5];
__device__ entry table[2] = {
    { "first", target_arr, target_fn, 1 },
    { "second", &target_arr[8], target_fn, 2 },
};

__global__ void walk(int *out)
{
    entry &e = table[threadIdx.x & 1];
    out[threadIdx.x] = e.fn(e.data[0]) + *p_scalar + *p_mid + e.name[0];
}
