nvcc -arch=sm_80 -rdc=true kernels.o -o app
