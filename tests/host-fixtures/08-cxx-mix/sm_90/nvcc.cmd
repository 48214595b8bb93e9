nvcc -arch=sm_90 -rdc=true cfuncs.o main.o tmpl.o -o app
