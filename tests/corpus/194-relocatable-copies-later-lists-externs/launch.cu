// A unit launching a kernel (dynamic parallelism) whose kernel also calls
// sin(double): the math library's local __internal_trig_reduction_slowpathd
// comes with it, and nvlink -r lists the launched kernel in its EXTERNS.
__global__ void child(int *p) { p[0] = 1; }

__global__ void kern0(int *p, double x)
{
    p[1] = (int)sin(x * p[2]);
    child<<<1, 1>>>(p);
}
