nvcc -arch=sm_100 -rdc=true main.o ops.o -o app
