nvcc -arch=sm_90 -rdc=true main.o -L. -ldevops -o app
