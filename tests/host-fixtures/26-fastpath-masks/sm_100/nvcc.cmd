nvcc -arch=sm_100 -rdc=true main.o math.o -o app
