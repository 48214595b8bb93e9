nvcc -arch=sm_90 -rdc=true main.o ops.o -o app
