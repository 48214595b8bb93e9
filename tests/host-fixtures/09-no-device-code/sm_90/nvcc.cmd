nvcc -arch=sm_90 -rdc=true main.o hostonly.o util.o -o app
