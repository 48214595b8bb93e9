nvcc -arch=sm_75 -rdc=true child.o main.o parent.o -o app
