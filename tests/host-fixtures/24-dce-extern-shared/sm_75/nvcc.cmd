nvcc -arch=sm_75 -rdc=true a_dead.o main.o -o app
