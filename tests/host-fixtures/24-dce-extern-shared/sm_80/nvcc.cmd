nvcc -arch=sm_80 -rdc=true a_dead.o main.o -o app
