nvcc -arch=sm_90 -rdc=true log.o main.o -o app
