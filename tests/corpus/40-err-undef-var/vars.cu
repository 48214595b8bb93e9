__device__ int g_present = 1;
