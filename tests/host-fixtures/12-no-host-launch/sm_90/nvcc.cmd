nvcc -arch=sm_90 -rdc=true kernels.o main.o more.o -o app
