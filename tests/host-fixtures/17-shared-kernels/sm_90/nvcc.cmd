nvcc -arch=sm_90 -rdc=true main.o more_kernels.o -o app
