// PTX inputs: nvlink compiles them with its embedded ptxas; culd runs an
// external ptxas with the options nvlink's records show (`-arch sm_XX -m 64
// -c`), so the resulting cubin is the one nvlink would have linked.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace culd {

// The ptxas to use: `explicitPath` (--ptxas-path) if given, else
// $CUDA_HOME/bin, $CUDA_PATH/bin, PATH, then /usr/local/cuda/bin. Empty when
// none is found.
std::string findPtxas(const std::string &explicitPath);

// Compiles PTX text (`name` is what messages call it) to a relocatable cubin
// for `archText` ("sm_90a"). Throws FatalError naming the input when no
// ptxas exists or it fails (with its diagnostics).
std::vector<uint8_t> compilePtx(const std::string &ptx, const std::string &name,
                                const std::string &archText, const std::string &ptxasPath);

// Compiles the whole program's PTX (link-time optimisation) to an
// executable cubin: `-arch sm_XX -m 64` and `extraOptions`, no `-c`, as
// nvlink's own ptxas records it in .note.nv.tkinfo.
std::vector<uint8_t> compileWholeProgramPtx(const std::string &ptx, const std::string &name,
                                            const std::string &archText,
                                            const std::string &ptxasPath,
                                            const std::vector<std::string> &extraOptions);

} // namespace culd
