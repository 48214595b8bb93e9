nvcc -arch=sm_90 -rdc=true heavy.o main.o -o app
