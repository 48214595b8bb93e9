nvcc -arch=sm_75 -rdc=true child.o parent.o -o app
