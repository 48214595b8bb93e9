// Code made for another SM of the target's family: sm_100 code linked for
// sm_103, sm_120 code for sm_121.
//
// nvlink finalises such code for the target and regenerates, from its
// Mercury form, each kept function that cannot take the fast path there
// (a double-precision kernel of sm_100 code on sm_103; docs/nvlink-findings.md,
// "Blackwell"). It does so even where the fatbin also holds PTX: its output
// is the same with and without the PTX entry (measured). culd cannot
// regenerate code. Where the fatbin holding such a cubin also holds PTX the
// target's ptxas compiles, culd links that PTX instead -- code it can vouch
// for, though not nvlink's bytes, so it warns; otherwise the link is refused,
// naming the function (linkedFastpathMask).
//
// Which functions are kept is known only once dead code is removed, and the
// entry a fatbin gives is chosen when it is read: so this pass asks for a
// second run of the link (RelinkFromPtx), which reads those inputs' PTX.
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/InputFiles.h"
#include "culd/Link.h"

namespace culd {

const InputSection *functionOffFastPath(const Context &ctx, const ObjectFile &file) {
    if (file.sm() == ctx.target.sm() || ctx.target.fastpathCodeBits(file.sm()) == 0)
        return nullptr;
    for (const InputSection *s : file.sections)
        if (s && s->kind == SectionKind::Text && s->isLive() &&
            ctx.target.fastpathClears(s->bytes(), file.sm()))
            return s;
    return nullptr;
}

std::string functionName(const InputSection &text) {
    return std::string(text.owner ? text.owner->name : text.name());
}

std::string offFastPathMessage(const std::string &input, const std::string &function,
                               const std::string &compiledFor, const std::string &target) {
    return "'" + input + "': function '" + function + "', compiled for " + compiledFor +
           ", cannot take the fast path to " + target + "; nvlink recompiles it, which culd "
           "cannot do";
}

void chooseCrossTargetCode(Context &ctx) {
    // A link that has failed already fails the same way the second time.
    if (Diagnostics::get().errorCount())
        return;
    RelinkFromPtx relink;
    for (const auto &file : ctx.files)
        if (file->ptxAlternative)
            if (const InputSection *text = functionOffFastPath(ctx, *file))
                relink.inputs.emplace(file->name(), functionName(*text));
    if (!relink.inputs.empty())
        throw relink;
}

} // namespace culd
