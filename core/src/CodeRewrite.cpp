// Code the target rewrites before layout.
//
// Some targets change a function's code at link time, size included: nvlink
// 13.0 removes the memory-fence placeholders of sm_100+ kernels that make no
// call (plugins/sm100-mercury/Fences.cpp). The plugin's rewrite_code hook
// gives the new bytes and the input ranges removed; every other input byte
// keeps its order, so here everything that addresses the code moves with
// it, as if the compiler had emitted the new code:
//   * the section is linked through a RecordLayout (its new bytes, and the
//     map from input offsets that relocations go through);
//   * the symbols defined in it get their new values and sizes;
//   * its frame entry (.debug_frame) gets the new address range, and its
//     location advances the offsets they now reach;
//   * .nv.info instruction offsets are mapped when written
//     (SyntheticSections.cpp).
// What would need more than moving offsets is refused: a relocation inside
// removed code, a reference into the code with an addend, line tables and
// other debug information addressing it. A relocatable link (-r) keeps the
// code as compiled, as nvlink does: the final link rewrites it.
#include "culd/Bytes.h"
#include "culd/Context.h"
#include "culd/DebugFrame.h"
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/Link.h"
#include "culd/SymbolNames.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace culd {

namespace {

// The kept ranges between the removed ones, and the new bytes.
void layOutRewrittenCode(InputSection &text, Target::RewrittenCode &code) {
    RecordLayout &layout = text.records;
    layout.active = true;
    uint64_t at = 0, linked = 0;
    for (const auto &[begin, end] : code.removed) {
        if (begin > at)
            layout.kept.push_back({at, begin, linked});
        linked += begin - at;
        at = end;
    }
    if (text.size() > at)
        layout.kept.push_back({at, text.size(), linked});
    layout.linkedSize = code.bytes.size();
    text.rewritten = std::move(code.bytes);
    // The shadow's relocations and metadata address its own code: only its
    // bytes change.
    if (text.shadow && !code.shadow.empty())
        text.shadow->rewritten = std::move(code.shadow);
}

// CUDA code addresses are 8 bytes, in 32- and 64-bit DWARF alike.
constexpr uint64_t kAddressSize = 8;

// Moves the location advances of one frame entry's call-frame program so
// that each reaches what it reached before in the rewritten code.
void moveAdvances(const InputSection &frame, const InputSection &text, uint64_t codeAlign,
                  uint64_t begin, uint64_t end, const std::string &where,
                  std::vector<FieldPatch> &patches) {
    uint64_t location = 0, linked = 0;
    for (const FrameInstruction &insn : parseFrameProgram(frame.bytes(), begin, end, where)) {
        if (!insn.advance)
            continue;
        auto fail = [&](const std::string &why) {
            return FatalError(where + ": the call-frame program at offset " + hex(insn.begin) +
                              " " + why);
        };
        location += insn.delta * codeAlign;
        uint64_t moved = text.linkedAtOrAfter(location);
        if ((moved - linked) % codeAlign != 0)
            throw fail("moves a location advance off the code alignment");
        uint64_t newDelta = (moved - linked) / codeAlign;
        if (insn.width == 0 ? newDelta > 0x3f
                            : insn.width < 8 && newDelta >> (8 * insn.width) != 0)
            throw fail("needs a wider location advance");
        if (newDelta != insn.delta) {
            if (insn.width == 0)
                patches.push_back({insn.begin, uint64_t(0x40 | newDelta), 1});
            else
                patches.push_back({insn.begin + 1, newDelta, static_cast<uint8_t>(insn.width)});
        }
        linked = moved;
    }
}

class CodeRewriter {
public:
    CodeRewriter(Context &ctx, ObjectFile &file, uint32_t linkFlags)
        : ctx_(ctx), file_(file), linkFlags_(linkFlags) {}

    void run() {
        for (InputSection *s : file_.sections)
            if (s && s->kind == SectionKind::Text && s->isLive() && s->owner &&
                s->owner->isFunction())
                rewrite(*s);
        if (!rewrittenAny_)
            return;
        moveSymbols();
        checkReferences();
        moveFrameEntries();
    }

private:
    std::string functionName(const InputSection &text) const {
        return demangleForMessage(text.owner->name);
    }

    void rewrite(InputSection &text) {
        uint32_t flags = text.owner->isEntry() ? CULD_CODE_F_ENTRY : 0;
        std::optional<Target::RewrittenCode> code;
        try {
            ByteView shadow = text.shadow ? text.shadow->bytes() : ByteView{};
            code = ctx_.target.rewriteCode(text.bytes(), shadow, flags, linkFlags_);
        } catch (const FatalError &e) {
            throw FatalError(file_.name() + ": function '" + functionName(text) + "': " +
                             e.what());
        }
        if (!code)
            return;
        layOutRewrittenCode(text, *code);
        rewrittenAny_ = true;
        spdlog::debug("{}: rewrote the code of '{}' ({} -> {} bytes)", file_.name(),
                      text.owner->name, text.size(), text.linkedSize());
    }

    // Values and sizes in the new code (the size of a symbol that ran to
    // the end of its section runs to the new end).
    void moveSymbols() {
        std::unordered_set<Symbol *> moved;
        for (Symbol *sym : file_.symbols) {
            if (!sym || sym->isSectionSymbol || !(sym->section && sym->section->isRewrittenCode()) ||
                sym->section->file != &file_ || !moved.insert(sym).second)
                continue;
            const InputSection &text = *sym->section;
            uint64_t end = sym->value + sym->size;
            uint64_t value = text.linkedAtOrAfter(sym->value);
            uint64_t newEnd = end >= text.size() ? text.linkedSize() : text.linkedAtOrAfter(end);
            sym->value = value;
            sym->size = newEnd - value;
        }
    }

    // Relocations inside removed code, and references into the code that
    // need more than its start, are refused.
    void checkReferences() {
        for (const auto &[header, target] : file_.relocSections) {
            if (!target || !target->isLive())
                continue;
            for (const ElfReloc &r : file_.elf().relocations(*header)) {
                if (target->isRewrittenCode() && !target->linkedOffset(r.offset))
                    throw refusal(*target, "relocation at offset " + hex(r.offset) +
                                               " lies in the code removed");
                Symbol *sym = r.symbol < file_.symbols.size() ? file_.symbols[r.symbol] : nullptr;
                if (!sym || !(sym->section && sym->section->isRewrittenCode()) || sym->section->file != &file_)
                    continue;
                if (target->kind == SectionKind::Debug && target->name() != ".debug_frame" &&
                    !isMovedWithCode(*target))
                    throw refusal(*sym->section, "section '" + std::string(target->name()) +
                                                     "' (line tables, debug information) "
                                                     "addresses its code, which culd does not "
                                                     "rewrite");
                if (r.addend != 0 || (!sym->isSectionSymbol && sym->value != 0))
                    throw refusal(*sym->section, "section '" + std::string(target->name()) +
                                                     "' refers into its code at offset " +
                                                     hex(r.offset));
            }
        }
    }

    // Debug sections whose references to the code move with it: the frame
    // entries (moveFrameEntries) and the line tables, whose sequences of
    // rewritten code are encoded again (DebugLine.cpp).
    static bool isMovedWithCode(const InputSection &debug) {
        return debug.name() == ".debug_line" || debug.name() == ".nv_debug_line_sass";
    }

    FatalError refusal(const InputSection &text, const std::string &why) const {
        std::string function = text.owner ? functionName(text) : std::string(text.name());
        return FatalError(file_.name() + ": function '" + function +
                          "': its code is rewritten by the target (" + why + ")");
    }

    // Each rewritten function's frame entry: the new address range, and
    // location advances that reach what they reached before.
    void moveFrameEntries() {
        InputSection *frame = nullptr;
        const ElfSection *frameRelocs = nullptr;
        for (const auto &[header, target] : file_.relocSections)
            if (target && target->isLive() && target->name() == ".debug_frame") {
                frame = target;
                frameRelocs = header;
            }
        if (!frame)
            return;
        std::unordered_map<uint64_t, const InputSection *> codeAt;
        for (const ElfReloc &r : file_.elf().relocations(*frameRelocs)) {
            Symbol *sym = r.symbol < file_.symbols.size() ? file_.symbols[r.symbol] : nullptr;
            if (sym && (sym->section && sym->section->isRewrittenCode()) && sym->section->file == &file_)
                codeAt.emplace(r.offset, sym->section);
        }
        const std::string where = file_.name() + ": section '.debug_frame'";
        const std::vector<FrameEntry> entries = parseFrameEntries(frame->bytes(), where);
        uint64_t codeAlign = 0;
        for (const FrameEntry &e : entries) {
            if (e.isCie) {
                codeAlign = cieCodeAlignment(frame->bytes(), e, where);
                continue;
            }
            auto it = codeAt.find(e.locationField);
            if (e.end == e.begin + 4 || it == codeAt.end())
                continue;
            const InputSection &text = *it->second;
            const uint64_t rangeField = e.locationField + kAddressSize;
            const uint64_t programBegin = rangeField + kAddressSize;
            if (programBegin > e.end ||
                readLittle(frame->bytes().data + rangeField, kAddressSize) != text.size() ||
                codeAlign == 0)
                throw refusal(text, "its frame entry at offset " + hex(e.begin) +
                                        " does not cover exactly its code");
            frame->patches.push_back({rangeField, text.linkedSize(), kAddressSize});
            moveAdvances(*frame, text, codeAlign, programBegin, e.end, where, frame->patches);
        }
        std::sort(frame->patches.begin(), frame->patches.end(),
                  [](const FieldPatch &a, const FieldPatch &b) { return a.offset < b.offset; });
    }

    Context &ctx_;
    ObjectFile &file_;
    uint32_t linkFlags_;
    bool rewrittenAny_ = false;
};

} // namespace

void rewriteCode(Context &ctx) {
    if (ctx.opts.relocatable)
        return;
    const uint32_t flags = linkFlags(ctx);
    for (auto &file : ctx.files)
        CodeRewriter(ctx, *file, flags).run();
}

} // namespace culd
