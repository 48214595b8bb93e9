nvcc -arch=sm_75 -rdc=true main.o other.o -o app
