// 12-no-host-launch: main.cpp - host code that launches no kernel (g++).
#include <cstdio>

int main()
{
    std::puts("no kernel launched here");
    return 0;
}
