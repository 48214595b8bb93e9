nvcc -arch=sm_100 -rdc=true main.o -o app
