nvcc -arch=sm_80 -rdc=true main.o more_kernels.o -o app
