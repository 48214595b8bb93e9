nvcc -arch=sm_90 -rdc=true main.o libextra.a -o app
