nvcc -arch=sm_75 -rdc=true main.o -L. -ldevops -o app
