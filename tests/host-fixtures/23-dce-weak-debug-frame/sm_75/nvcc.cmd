nvcc -arch=sm_75 -rdc=true a_lib.o b_lib.o main.o -o app
