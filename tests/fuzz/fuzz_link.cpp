// The whole link over one fuzzed input, with the options rotating.
//
// Input layout: byte 0 picks options (bit 0 -r, bit 1 -g, bit 2
// --preserve-relocs, bit 3 the input is a host object, bit 4 a second,
// valid cubin joins the link, bit 5 --force-rela), byte 1 the target arch;
// the rest is the file. Inputs and output live in a private temporary
// directory (in /dev/shm where it exists); plugins are loaded once, from the build tree.
#include "FuzzUtil.h"

#include "culd/Link.h"
#include "culd/Options.h"
#include "culd/PluginRegistry.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

const char *const kArchs[] = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_52"};

// Every execution writes its input and output: a memory file system, where
// there is one, spares the disk (about an eighth of the time per execution).
fs::path scratchRoot() {
    std::error_code ec;
    if (fs::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0)
        return "/dev/shm";
    return fs::temp_directory_path();
}

struct Workspace {
    fs::path dir;
    culd::PluginRegistry plugins{{CULD_BUILD_PLUGIN_DIR}};
    std::string companion; // a valid cubin to link against, when one is found

    Workspace() {
        dir = scratchRoot() / ("culd-fuzz-link-" + std::to_string(::getpid()));
        fs::create_directories(dir);
        spdlog::set_level(spdlog::level::off);
        fs::path lib = fs::path(CULD_FIXTURES_DIR) / "02-cross-file-call" / "sm_80" / "lib.cubin";
        if (fs::exists(lib))
            companion = lib.string();
    }
};

Workspace &workspace() {
    static Workspace *w = new Workspace(); // never destroyed: no teardown at exit
    return *w;
}

void writeInput(const fs::path &path, const uint8_t *data, size_t size) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace culd;
    if (size < 2)
        return 0;
    Workspace &w = workspace();
    const uint8_t flags = data[0];
    const char *arch = kArchs[data[1] % (sizeof kArchs / sizeof *kArchs)];
    const fs::path input = w.dir / ((flags & 8) ? "input.o" : "input.cubin");
    const fs::path output = w.dir / "out.cubin";
    writeInput(input, data + 2, size - 2);

    std::vector<std::string> args = {std::string("-arch=") + arch, "-o", output.string()};
    if (flags & 1)
        args.push_back("-r");
    if (flags & 2)
        args.push_back("-g");
    if (flags & 4)
        args.push_back("--preserve-relocs");
    if (flags & 32)
        args.push_back("--force-rela");
    args.push_back("--threads=1");
    args.push_back("--max-decompressed-size=67108864");
    args.push_back("--max-output-size=67108864");
    args.push_back(input.string());
    if ((flags & 16) && !w.companion.empty())
        args.push_back(w.companion);

    fuzz::refuseOrAccept([&] {
        Diagnostics::get().reset();
        Options opts = parseOptions(args);
        runLink(opts, w.plugins.pluginFor(opts.sm));
    });
    std::error_code ec;
    fs::remove(input, ec);
    fs::remove(output, ec);
    return 0;
}
