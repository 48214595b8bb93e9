nvcc -arch=sm_80 -rdc=true main.o vars.o -o app
