// Writing an output file so that a failed link never leaves a partial one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace culd {

// Writes `bytes` to a temporary file beside `path` (`<path>.culd-tmp.<pid>.<n>`,
// created exclusively, mode 0666 less the umask), then renames it over
// `path`. On any failure the temporary is removed and FatalError
// ("<path>: <what>: <reason>") is thrown; `path` is then untouched.
void writeFileAtomically(const std::string &path, const std::vector<uint8_t> &bytes);

} // namespace culd
