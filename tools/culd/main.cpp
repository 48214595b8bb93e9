// The culd command: nvlink's command line. Everything that is no link
// (--help, --version, --list-plugins, --gen-host-linker-script) and the
// option errors are the driver's; a link goes through libculd's API
// (culdLink.h and its extensions), the same calls any other program makes.
#include "culd/Driver.h"
#include "culd/culdLink.h"
#include "culd/culdLinkExt.h"

#include <cstdio>
#include <string>
#include <vector>

namespace {

// Messages go to stderr as the link reports them, as nvlink's do.
void printMessage(void *, culdLinkMessageKind, const char *text) { std::fputs(text, stderr); }

void printErrorLog(culdLinkHandle handle) {
    size_t size = 0;
    if (culdLinkGetErrorLogSize(handle, &size) != CULDLINK_SUCCESS)
        return;
    std::string log(size, '\0');
    if (culdLinkGetErrorLog(handle, log.data()) == CULDLINK_SUCCESS)
        std::fputs(log.c_str(), stderr);
}

int linkThroughLibrary(const culd::LinkCommandLine &line) {
    std::vector<const char *> options;
    for (const std::string &option : line.options)
        options.push_back(option.c_str());
    options.push_back(nullptr); // the array must exist even when empty
    culdLinkHandle handle = nullptr;
    if (culdLinkCreate(&handle, static_cast<uint32_t>(options.size() - 1), options.data()) !=
        CULDLINK_SUCCESS) {
        printErrorLog(handle);
    } else {
        culdLinkSetMessageCallback(handle, printMessage, nullptr);
        for (const std::string &input : line.inputs)
            culdLinkAddInputPath(handle, input.c_str());
        culdLinkComplete(handle); // the exit status says how it went
    }
    int status = culd::kExitFatal;
    culdLinkGetExitStatus(handle, &status);
    culdLinkDestroy(&handle);
    return status;
}

} // namespace

int main(int argc, char **argv) {
    return culd::runDriver(std::vector<std::string>(argv + 1, argv + argc), linkThroughLibrary);
}
