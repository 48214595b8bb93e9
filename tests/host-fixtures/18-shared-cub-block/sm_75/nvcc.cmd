nvcc -arch=sm_75 -rdc=true main.o sort.o -o app
