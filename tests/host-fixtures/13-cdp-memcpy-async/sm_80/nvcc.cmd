nvcc -arch=sm_80 -rdc=true helper.o main.o -o app
