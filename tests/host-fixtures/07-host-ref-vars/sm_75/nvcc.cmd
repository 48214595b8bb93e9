nvcc -arch=sm_75 -rdc=true main.o vars.o -o app
