#include "culd/Ptxas.h"

#include "culd/Diagnostics.h"
#include "culd/Strings.h"
#include "culd/Process.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace fs = std::filesystem;

namespace culd {

namespace {

bool isExecutable(const fs::path &p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// A scratch directory removed when it goes out of scope.
class ScratchDir {
public:
    ScratchDir() {
        std::string tmpl = (fs::temp_directory_path() / "culd-ptxas-XXXXXX").string();
        std::vector<char> buf(tmpl.begin(), tmpl.end());
        buf.push_back('\0');
        if (!mkdtemp(buf.data()))
            throw FatalError(std::string("cannot create a temporary directory: ") +
                             std::strerror(errno));
        path_ = buf.data();
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path &path() const { return path_; }

private:
    fs::path path_;
};

std::string readText(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

std::string findPtxas(const std::string &explicitPath) {
    if (!explicitPath.empty())
        return isExecutable(explicitPath) ? explicitPath : std::string();
    for (const char *var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char *root = std::getenv(var))
            if (isExecutable(fs::path(root) / "bin" / "ptxas"))
                return (fs::path(root) / "bin" / "ptxas").string();
    for (const std::string &dir : searchPathFromEnv("PATH"))
        if (isExecutable(fs::path(dir) / "ptxas"))
            return (fs::path(dir) / "ptxas").string();
    if (isExecutable("/usr/local/cuda/bin/ptxas"))
        return "/usr/local/cuda/bin/ptxas";
    return {};
}

namespace {

// Runs ptxas on `ptx` with `options` before the input and output names;
// returns the cubin. `what` says why ptxas is needed, for the message
// when there is none.
std::vector<uint8_t> runPtxas(const std::string &ptx, const std::string &name,
                              const std::string &what, const std::string &ptxasPath,
                              const std::vector<std::string> &options) {
    if (ptxasPath.empty())
        throw FatalError(name + ": " + what +
                         ", and none was found (use --ptxas-path, CUDA_HOME, or PATH)");
    ScratchDir dir;
    fs::path in = dir.path() / "input.ptx", out = dir.path() / "output.cubin";
    // PTX in fatbins is NUL-terminated; ptxas reads a NUL as a premature EOF.
    std::ofstream(in, std::ios::binary) << ptx.substr(0, ptx.find('\0'));
    std::vector<std::string> args{ptxasPath};
    args.insert(args.end(), options.begin(), options.end());
    args.insert(args.end(), {in.string(), "-o", out.string()});
    ProcessResult ptxas = runProcess(args, true);
    if (ptxas.exitCode != 0) {
        const std::string &messages = ptxas.output;
        throw FatalError(name + ": ptxas failed (" +
                         (ptxas.exitCode < 0 ? std::string("killed by a signal")
                                             : "exit " + std::to_string(ptxas.exitCode)) +
                         ")" + (messages.empty() ? "" : ":\n" + messages));
    }
    std::string bytes = readText(out);
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
}

} // namespace

std::vector<uint8_t> compilePtx(const std::string &ptx, const std::string &name,
                                const std::string &archText, const std::string &ptxasPath) {
    return runPtxas(ptx, name, "PTX input needs ptxas to be compiled for " + archText, ptxasPath,
                    {"-arch=" + archText, "-m64", "-c"});
}

std::vector<uint8_t> compileWholeProgramPtx(const std::string &ptx, const std::string &name,
                                            const std::string &archText,
                                            const std::string &ptxasPath,
                                            const std::vector<std::string> &extraOptions) {
    std::vector<std::string> options{"-arch", archText, "-m", "64"};
    options.insert(options.end(), extraOptions.begin(), extraOptions.end());
    return runPtxas(ptx, name, "link-time optimisation needs ptxas to compile the linked PTX", ptxasPath, options);
}

} // namespace culd
