nvcc -arch=sm_80 -rdc=true main.o extra.o libdevops.a -o app
