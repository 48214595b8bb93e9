nvcc -arch=sm_75 -rdc=true heavy.o main.o -o app
