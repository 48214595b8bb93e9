nvcc -arch=sm_90 -rdc=true main.o extra.o -Xnvlink -g -o app
