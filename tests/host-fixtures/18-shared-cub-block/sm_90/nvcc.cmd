nvcc -arch=sm_90 -rdc=true main.o sort.o -o app
