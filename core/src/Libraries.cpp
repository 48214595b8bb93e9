#include "culd/Libraries.h"

#include <cstdlib>
#include <filesystem>

namespace fs = std::filesystem;

namespace culd {

std::vector<std::string> librarySearchPath(const std::vector<std::string> &libraryPaths) {
    std::vector<std::string> dirs = libraryPaths;
    if (const char *env = std::getenv("LIBRARY_PATH")) {
        std::string list(env);
        size_t start = 0;
        while (start <= list.size()) {
            size_t colon = list.find(':', start);
            std::string dir = list.substr(start, colon == std::string::npos ? std::string::npos
                                                                            : colon - start);
            if (!dir.empty())
                dirs.push_back(dir);
            if (colon == std::string::npos)
                break;
            start = colon + 1;
        }
    }
    return dirs;
}

std::optional<std::string> findLibrary(const std::string &name,
                                       const std::vector<std::string> &searchPath) {
    for (const std::string &dir : searchPath) {
        fs::path candidate = fs::path(dir) / ("lib" + name + ".a");
        std::error_code ec;
        if (fs::is_regular_file(candidate, ec))
            return candidate.string();
    }
    return std::nullopt;
}

bool isDeviceRuntimeLibrary(const std::string &path) {
    return fs::path(path).filename() == "libcudadevrt.a";
}

} // namespace culd
