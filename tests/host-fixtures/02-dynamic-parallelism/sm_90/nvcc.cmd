nvcc -arch=sm_90 -rdc=true child.o parent.o -o app
