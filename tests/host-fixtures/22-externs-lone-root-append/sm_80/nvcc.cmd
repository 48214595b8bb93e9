nvcc -arch=sm_80 -rdc=true main.o others.o -o app
