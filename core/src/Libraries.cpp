#include "culd/Libraries.h"

#include "culd/Diagnostics.h"
#include "culd/Strings.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace fs = std::filesystem;

namespace culd {

std::vector<std::string> librarySearchPath(const std::vector<std::string> &libraryPaths) {
    std::vector<std::string> dirs = libraryPaths;
    for (std::string &dir : searchPathFromEnv("LIBRARY_PATH"))
        dirs.push_back(std::move(dir));
    return dirs;
}

namespace {

bool isArchiveFile(const fs::path &path) {
    char magic[8] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(magic, sizeof magic);
    std::string_view m(magic, size_t(in.gcount()));
    return m == "!<arch>\n" || m == "!<thin>\n";
}

} // namespace

std::optional<std::string> findLibrary(const std::string &name,
                                       const std::vector<std::string> &searchPath) {
    for (const std::string &dir : searchPath) {
        fs::path candidate = fs::path(dir) / ("lib" + name + ".a");
        std::error_code ec;
        if (!fs::is_regular_file(candidate, ec))
            continue;
        // Like ld, nvlink passes over a file of that name that is no archive
        // and goes on searching.
        if (!isArchiveFile(candidate)) {
            Diagnostics::get().warning("Skipping incompatible '" + candidate.string() +
                                       "' when searching for -l" + name);
            continue;
        }
        return candidate.string();
    }
    return std::nullopt;
}

bool isDeviceRuntimeLibrary(const std::string &path) {
    return fs::path(path).filename() == "libcudadevrt.a";
}

} // namespace culd
