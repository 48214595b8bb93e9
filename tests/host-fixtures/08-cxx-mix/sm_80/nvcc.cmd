nvcc -arch=sm_80 -rdc=true cfuncs.o main.o tmpl.o -o app
