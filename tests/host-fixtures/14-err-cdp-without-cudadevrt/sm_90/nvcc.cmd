nvcc -arch=sm_90 -rdc=true child.o main.o parent.o -o app
