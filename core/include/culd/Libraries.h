// -L / -l: finding `lib<name>.a` the way nvlink does.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace culd {

// The directories searched for -l: the -L directories in order, then those
// of $LIBRARY_PATH.
std::vector<std::string> librarySearchPath(const std::vector<std::string> &libraryPaths);

// The path of `lib<name>.a` in the first directory that has it. nvlink
// accepts a library it cannot find without a word; culd warns.
std::optional<std::string> findLibrary(const std::string &name,
                                       const std::vector<std::string> &searchPath);

// Whether `path` names the CUDA device runtime (libcudadevrt.a), which is
// linked only as far as it is needed and never listed for registration.
bool isDeviceRuntimeLibrary(const std::string &path);

} // namespace culd
