nvcc -arch=sm_80 -rdc=true main.o extra.o -Xnvlink -g -o app
