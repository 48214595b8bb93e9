nvcc -arch=sm_75 -rdc=true main.o extra.o -Xnvlink -g -o app
