nvcc -arch=sm_75 -rdc=true kernels.o -o app
