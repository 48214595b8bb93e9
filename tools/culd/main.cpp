#include "culd/Driver.h"

int main(int argc, char **argv) {
    return culd::runDriver(std::vector<std::string>(argv + 1, argv + argc));
}
