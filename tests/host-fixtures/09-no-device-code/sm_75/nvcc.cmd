nvcc -arch=sm_75 -rdc=true main.o hostonly.o util.o -o app
