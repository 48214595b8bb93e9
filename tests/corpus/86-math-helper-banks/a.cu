// The accurate double-precision math routines keep coefficient tables in
// their own constant bank (.nv.constant2.__internal_*); nvlink copies them
// into the bank of each kernel that reaches them.
__device__ __noinline__ double powsin(double x, double y) { return pow(x, y) + sin(y); }
__device__ __noinline__ double dead_math(double x) { return exp(x) * erfinv(x); }

__global__ void kpow(double *o, double x, double y) { o[0] = powsin(x, y) + exp(x); }
__global__ void kerf(double *o, double x) { o[1] = erfinv(x * 0.1) + tgamma(x); }
