nvcc -arch=sm_80 -rdc=true heavy.o main.o -o app
