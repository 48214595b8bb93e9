nvcc -arch=sm_90 -rdc=true a_dead.o main.o -o app
