nvcc -arch=sm_80 -rdc=true main.o -L. -ldevops -o app
