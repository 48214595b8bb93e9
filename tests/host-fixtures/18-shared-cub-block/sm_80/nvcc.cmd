nvcc -arch=sm_80 -rdc=true main.o sort.o -o app
