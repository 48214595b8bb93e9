nvcc -arch=sm_120 -rdc=true main.o -o app
