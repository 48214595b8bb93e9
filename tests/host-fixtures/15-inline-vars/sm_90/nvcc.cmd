nvcc -arch=sm_90 -rdc=true main.o other.o -o app
