nvcc -arch=sm_80 -rdc=true rdc1.o whole.o rdc2.o -o app
