nvcc -arch=sm_75 -rdc=true heap.o main.o table.o -o app
