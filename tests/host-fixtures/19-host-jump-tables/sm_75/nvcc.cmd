nvcc -arch=sm_75 -rdc=true main.o ops.o -o app
