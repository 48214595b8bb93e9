nvcc -arch=sm_75 -rdc=true helper.o main.o -o app
