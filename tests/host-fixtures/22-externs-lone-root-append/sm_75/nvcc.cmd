nvcc -arch=sm_75 -rdc=true main.o others.o -o app
