nvcc -arch=sm_80 -rdc=true child.o main.o parent.o -o app
