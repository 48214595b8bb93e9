// 14-err-cdp-without-cudadevrt: main.cpp - host code that launches no kernel (g++).
#include <cstdio>

int main()
{
    std::puts("no kernel launched here");
    return 0;
}
