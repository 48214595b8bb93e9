nvcc -arch=sm_80 -rdc=true kernels.o main.o more.o -o app
