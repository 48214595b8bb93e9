// A unit whose kernel calls sin(double) too: a second local copy of
// __internal_trig_reduction_slowpathd, without EXTERNS.
__global__ void kern1(int *p, double x) { p[3] = (int)sin(x + p[4]); }
