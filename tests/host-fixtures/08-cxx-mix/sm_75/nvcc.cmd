nvcc -arch=sm_75 -rdc=true cfuncs.o main.o tmpl.o -o app
