nvcc -arch=sm_75 -rdc=true rdc1.o whole.o rdc2.o -o app
