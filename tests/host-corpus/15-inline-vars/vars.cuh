// C++17 inline variables and a variable template, defined in every file
// that includes this header: weak definitions the device link merges.
#pragma once
inline __device__ int counter;
inline __device__ int table[4] = {1, 2, 3, 4};
inline __device__ int *cursor = &table[1];
inline __constant__ int scale[2] = {3, 5};
template <class T> __device__ T offset = T(7);
