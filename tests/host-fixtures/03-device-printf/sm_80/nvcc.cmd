nvcc -arch=sm_80 -rdc=true log.o main.o -o app
