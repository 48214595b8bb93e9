// child lives only through launcher's reference; --kernels-used removes
// launcher (and with it the undefined device-runtime calls).
__global__ void child(int *p) { *p = 1; }
__global__ void launcher(int *p) { child<<<1, 1>>>(p); }
__global__ void k(int *p) { *p = 2; }
