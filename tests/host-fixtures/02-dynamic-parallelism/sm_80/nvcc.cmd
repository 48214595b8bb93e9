nvcc -arch=sm_80 -rdc=true child.o parent.o -o app
