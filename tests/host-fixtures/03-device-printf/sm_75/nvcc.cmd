nvcc -arch=sm_75 -rdc=true log.o main.o -o app
