nvcc -arch=sm_75 -rdc=true kernels.o main.o more.o -o app
