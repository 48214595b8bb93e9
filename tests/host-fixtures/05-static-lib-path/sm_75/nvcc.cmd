nvcc -arch=sm_75 -rdc=true main.o extra.o libdevops.a -o app
