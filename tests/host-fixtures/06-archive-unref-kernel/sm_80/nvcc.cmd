nvcc -arch=sm_80 -rdc=true main.o libextra.a -o app
