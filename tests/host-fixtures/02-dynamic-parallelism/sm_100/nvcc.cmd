nvcc -arch=sm_100 -rdc=true child.o parent.o -o app
