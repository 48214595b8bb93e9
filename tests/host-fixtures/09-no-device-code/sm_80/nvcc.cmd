nvcc -arch=sm_80 -rdc=true main.o hostonly.o util.o -o app
