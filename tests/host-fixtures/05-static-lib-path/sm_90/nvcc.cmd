nvcc -arch=sm_90 -rdc=true main.o extra.o libdevops.a -o app
