nvcc -arch=sm_90 -rdc=true heap.o main.o table.o -o app
