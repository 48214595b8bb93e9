nvcc -arch=sm_90 -rdc=true main.o vars.o -o app
