// A copy of pickA that loses to a.cu's.
#include "pa.h"
__global__ void kC(int *p) { p[0] = pickA(p[1]) * 2; }
