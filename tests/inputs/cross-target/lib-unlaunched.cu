// lib.cu without the host code that launches axpy_double: host-reference
// dead-code elimination drops that kernel. See README.md.
#define LIB_UNLAUNCHED
#include "lib.cu"
