nvcc -arch=sm_80 -rdc=true main.o ops.o -o app
