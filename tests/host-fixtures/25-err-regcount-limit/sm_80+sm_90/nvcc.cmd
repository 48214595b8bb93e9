nvcc -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -rdc=true heavy.o main.o -o app
