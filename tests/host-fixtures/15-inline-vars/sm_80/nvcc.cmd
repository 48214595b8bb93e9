nvcc -arch=sm_80 -rdc=true main.o other.o -o app
