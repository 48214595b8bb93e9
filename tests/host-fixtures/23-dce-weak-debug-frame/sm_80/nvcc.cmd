nvcc -arch=sm_80 -rdc=true a_lib.o b_lib.o main.o -o app
