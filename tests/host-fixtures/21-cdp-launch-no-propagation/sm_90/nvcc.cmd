nvcc -arch=sm_90 -rdc=true kernels.o -o app
