nvcc -arch=sm_80 -rdc=true heap.o main.o table.o -o app
