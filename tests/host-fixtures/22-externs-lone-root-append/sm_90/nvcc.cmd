nvcc -arch=sm_90 -rdc=true main.o others.o -o app
