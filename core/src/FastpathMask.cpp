// The output's .nv.compat CAN_FASTPATH_FINALIZE mask.
//
// The mask says to which other SMs the driver may hand the code unchanged
// (sm_100: 0x9; bit 3 goes where some code could not run on sm_103 as is).
// nvlink does not AND its inputs' masks: it keeps what the code it links
// allows. Measured (docs/nvlink-findings.md, "Blackwell"):
//   * a file without code (mask 0) counts for nothing (0x9 from 0x9, 0x9
//     and an empty unit);
//   * a file whose code is all dropped counts for nothing (host-object
//     links drop the kernels the host does not launch);
//   * within a file, only the kept functions count: 0x9 from a 0x1 unit
//     when the function that cleared bit 3 was dropped.
// So each kept function carries its file's mask, with the code-dependent
// bits (culd_arch_info::fastpath_code_bits) back where the plugin says its
// code does not clear them, and the output mask is their AND. A file's own
// mask must be what the plugin's answers make of its functions, or culd
// could not vouch for the answers: such a file is refused.
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/InputFiles.h"
#include "culd/Link.h"

namespace culd {
namespace {

bool isCode(const InputSection *s) { return s && s->kind == SectionKind::Text; }

// Which code-dependent bits each of a file's functions clears (by section
// index; empty for a file without code), checked against the file's mask:
// those bits are clear in it exactly where some function clears them.
std::vector<uint32_t> clearedByFunctions(const Context &ctx, const ObjectFile &file,
                                         uint32_t mask) {
    const uint32_t codeBits = ctx.target.fastpathCodeBits();
    std::vector<uint32_t> cleared(file.sections.size(), 0);
    uint32_t any = 0;
    bool hasCode = false;
    for (size_t i = 0; i < file.sections.size(); ++i)
        if (isCode(file.sections[i])) {
            cleared[i] = ctx.target.fastpathClears(file.sections[i]->bytes(), ctx.target.sm());
            any |= cleared[i];
            hasCode = true;
        }
    if (!hasCode)
        return {};
    if ((any & ~codeBits) || any != (codeBits & ~mask))
        throw FatalError("'" + file.name() + "': its .nv.compat CAN_FASTPATH_FINALIZE mask " +
                         hex(mask) + " is not what its code makes of it (" +
                         hex((mask | codeBits) & ~any) +
                         "); which mask nvlink writes for the functions kept is not known");
    return cleared;
}

// A file compiled for another SM of the family (sm_100 code linked for
// sm_103, sm_120 for sm_121) is finalised for the target: nvlink writes the
// target's own mask for it (0 on sm_103 and sm_121, measured), and
// recompiles a function whose code cannot take the fast path there (a
// double-precision kernel of sm_100 code on sm_103), which culd cannot do:
// without PTX to compile instead (CrossTarget.cpp) it is refused, naming
// it. Whether the file keeps any code.
bool keepsCrossTargetCode(const Context &ctx, const ObjectFile &file) {
    if (const InputSection *text = functionOffFastPath(ctx, file))
        throw FatalError(offFastPathMessage(file.name(), functionName(*text),
                                            "sm_" + std::to_string(file.sm()), ctx.target.name()) +
                         " (no PTX for " + ctx.target.name() + " in the input to compile instead)");
    for (const InputSection *s : file.sections)
        if (isCode(s) && s->isLive())
            return true;
    return false;
}

} // namespace

std::optional<uint32_t> linkedFastpathMask(const Context &ctx, const FastpathMasks &masks) {
    if (masks.empty())
        return std::nullopt;
    const uint32_t codeBits = ctx.target.fastpathCodeBits();
    uint32_t linked = ~0u;
    bool anyKept = false;
    for (const auto &[file, mask] : masks) {
        if (file->sm() != ctx.target.sm()) {
            if (keepsCrossTargetCode(ctx, *file)) {
                linked = 0;
                anyKept = true;
            }
            continue;
        }
        std::vector<uint32_t> cleared;
        if (codeBits)
            cleared = clearedByFunctions(ctx, *file, mask);
        for (size_t i = 0; i < file->sections.size(); ++i) {
            const InputSection *s = file->sections[i];
            if (!isCode(s) || !s->isLive())
                continue;
            uint32_t clears = cleared.empty() ? 0 : cleared[i];
            linked &= mask | (codeBits & ~clears);
            anyKept = true;
        }
    }
    if (anyKept)
        return linked;
    // No code at all (a link of data only): the masks ANDed.
    for (const auto &entry : masks)
        linked &= entry.second;
    return linked;
}

} // namespace culd
