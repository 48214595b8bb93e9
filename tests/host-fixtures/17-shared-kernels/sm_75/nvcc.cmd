nvcc -arch=sm_75 -rdc=true main.o more_kernels.o -o app
