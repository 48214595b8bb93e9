nvcc -arch=sm_75 -rdc=true main.o libextra.a -o app
