// Winning copies of pickA and pickB.
#include "pa.h"
#include "pb.h"
__global__ void kA(int *p) { p[0] = pickA(p[1]) + pickB(p[2]); }
