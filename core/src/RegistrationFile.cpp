// --register-link-binaries FILE: the C header nvcc compiles into the host
// side of a device link, naming the registration function of every linked
// host object (its __nv_module_id), in link order:
//   #define NUM_PRELINKED_OBJECTS 2
//   DEFINE_REGISTER_FUNC(_ca0b7167_7_main_cu_5fb7269d)
//   ...
// libcudadevrt's module is listed when its code was linked. Like nvlink,
// an existing file is left alone: nvcc runs one device link per arch with
// the same file, and the first one writes it.
#include "culd/Context.h"
#include "culd/Link.h"
#include "culd/OutputFile.h"

#include <filesystem>

namespace culd {

void writeRegistrationFile(Context &ctx) {
    std::error_code ec;
    if (std::filesystem::exists(ctx.opts.registerLinkBinaries, ec))
        return;
    std::string text = "#define NUM_PRELINKED_OBJECTS " +
                       std::to_string(ctx.hostModules.size()) + "\n";
    for (const Context::HostModule &m : ctx.hostModules)
        text += "DEFINE_REGISTER_FUNC(" + m.moduleId + ")\n";
    writeFileAtomically(ctx.opts.registerLinkBinaries,
                        std::vector<uint8_t>(text.begin(), text.end()));
}

} // namespace culd
