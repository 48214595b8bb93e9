nvcc -arch=sm_90 -rdc=true helper.o main.o -o app
