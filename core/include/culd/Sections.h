// Input sections (views into input files) and output sections (what the
// writer emits). Bytes are never copied here: an InputSection points into
// its file's mapping, an OutputSection lists (input section, offset) pieces,
// and the writer copies each piece once into the output buffer.
#pragma once

#include "culd/ElfFile.h"
#include "culd/Relocations.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

class ObjectFile;
struct Symbol;
struct OutputSection;

// What a section is to the linker, from its name and type.
enum class SectionKind : uint8_t {
    Ignored,        // null, string/symbol tables, notes we rebuild, ...
    Text,           // .text.<f>
    NvInfo,         // .nv.info (module records)
    NvInfoFunc,     // .nv.info.<f>
    Compat,         // .nv.compat
    Callgraph,      // .nv.callgraph
    Prototype,      // .nv.prototype
    Reloc,          // .rel<x> / .rela<x>
    ConstantBank,   // .nv.constant<N> (module-wide)
    ConstantEntry,  // .nv.constant<N>.<f> (per function)
    Global,         // .nv.global (NOBITS)
    GlobalInit,     // .nv.global.init
    SharedEntry,    // .nv.shared.<f>
    SharedGlobal,   // module-scope shared (.nv_debug.shared, .nv.shared without owner)
    SharedReserved, // .nv.shared.reserved.<x>
    Local,          // .nv.local.<f>
    Debug,          // .debug_*, .nv_debug_* (non-alloc, merged)
    Mercury,        // a Mercury shadow section (the plugin classifies them)
    Unsupported,    // UFT/UDT and other kinds not linked yet: an error if present
    // Output-only kinds the linker synthesises.
    Note,           // .note.nv.tkinfo / .note.nv.cuinfo
    RelAction,      // .nv.rel.action
    Symtab,         // .symtab
    Strtab,         // .strtab
    Shstrtab        // .shstrtab
};

const char *sectionKindName(SectionKind kind);

// An input section linked record by record instead of whole (DebugFrame.cpp:
// `.debug_frame` where the target rebuilds it): which byte ranges reach the
// output and where, and the fields the linker fills itself.
struct RecordLayout {
    // Input bytes [begin, end) land at `linked` from the start of the piece.
    struct Range {
        uint64_t begin = 0, end = 0, linked = 0;
        // 1 + the index in `replacements` of the bytes the linker writes
        // instead of the input's (a rebuilt frame entry); 0: the input's.
        // Input offsets past the replacement's size are not linked.
        uint32_t replacement = 0;
        uint64_t size(const RecordLayout &layout) const {
            return replacement ? layout.replacements[replacement - 1].size() : end - begin;
        }
    };
    // A `width`-byte field at input offset `field` that gets the output
    // section offset of the input byte `target` (a frame entry's CIE
    // pointer); whatever relocation the input has there is not applied.
    struct SelfOffset {
        uint64_t field = 0, target = 0;
        uint8_t width = 8;
    };
    bool active = false;
    // Records linked out of input order (sm_100+ line sequences): their
    // relocations are kept in output order, as nvlink's rebuilt table has
    // them.
    bool permuted = false;
    std::vector<Range> kept; // sorted by `begin`, disjoint
    std::vector<std::vector<uint8_t>> replacements;
    std::vector<SelfOffset> selfOffsets; // sorted by field
    uint64_t linkedSize = 0;

    // Where an input offset went (nullopt: dropped with its record).
    std::optional<uint64_t> linkedOffset(uint64_t inputOffset) const;
    bool isSelfOffsetField(uint64_t inputOffset) const;
};

// A field the linker rewrites in an input section's bytes, at an input
// offset (a rewritten function's frame entry: its address range and
// location advances; CodeRewrite.cpp).
struct FieldPatch {
    uint64_t offset = 0;
    uint64_t value = 0;
    uint8_t width = 0;
};

struct InputSection {
    ObjectFile *file = nullptr;
    const ElfSection *header = nullptr;
    SectionKind kind = SectionKind::Ignored;
    uint32_t bank = 0;       // constant bank number for Constant* kinds
    Symbol *owner = nullptr; // function a per-function section belongs to
    InputSection *text = nullptr; // .text of that function (itself for .text)
    bool live = true;        // false once DCE or weak resolution drops it
    // Code of a definition that lost to an earlier one at resolution (a
    // later winner does not change that).
    bool lostToEarlier = false;
    // Code of a definition that replaced an earlier one at resolution: the
    // weak copy read before it; and code that a later definition replaced.
    InputSection *replacedCopy = nullptr;
    bool replacedLater = false;
    // A replaced copy whose frame nvlink drops with its other descriptions
    // (CULD_ARCH_F_REPLACED_FRAMES_DROPPED and code that refers to other
    // symbols, or it replaced such a copy itself; set at resolution, see
    // descriptionDropped).
    bool replacedFrameDropped = false;
    // False when dead-code elimination found no root reaching it, also in a
    // debug link, which keeps such code but still excuses its undefined
    // references.
    bool reachable = true;
    // The Mercury shadow set (sm_100+): a Mercury section's SASS twin (the
    // section whose fate and place it follows) and a SASS section's Mercury
    // shadow; null where there is none. `mercuryKind` is the plugin's
    // culd_mercury_kind of a Mercury section.
    InputSection *twin = nullptr;
    InputSection *shadow = nullptr;
    uint8_t mercuryKind = 0;
    // A weak copy's constant bank kept although the copy lost to an earlier
    // definition (sm_75-sm_89, keepLostCopyBanks): its `text` is then the
    // final definition's code. `standsAlone`: written as a section of its
    // own (.nv.constant<N>.<f>) rather than into the kernels' banks.
    bool keptLostBank = false;
    bool standsAlone = false;
    // Weak data definitions here that lost to an earlier definition.
    uint32_t supersededDefinitions = 0;
    // [begin, end) of those that lost to an earlier *weak* one, sorted:
    // nvlink keeps their bytes but drops the relocations inside them (not
    // when the winner was strong).
    std::vector<std::pair<uint64_t, uint64_t>> supersededData;
    // Set when only some of its records are linked (see RecordLayout).
    RecordLayout records;
    // Fields rewritten after the bytes are copied, sorted by offset.
    std::vector<FieldPatch> patches;
    // When not empty, the bytes written instead of the input's: code and
    // its Mercury shadow as the target rewrote them (CodeRewrite.cpp). A
    // section linked through `records` keeps its input offsets there.
    std::vector<uint8_t> rewritten;

    // Code the target rewrote before layout (CodeRewrite.cpp).
    bool isRewrittenCode() const { return kind == SectionKind::Text && !rewritten.empty(); }
    // A per-function section lives and dies with its function's code.
    bool isLive() const { return live && (!text || text->live); }
    bool isReachable() const { return isLive() && reachable && (!text || text->reachable); }
    // Shared-memory variables (per kernel or module-wide): laid out into the
    // kernels' shared windows rather than placed by section offset.
    bool isSharedMemory() const {
        return kind == SectionKind::SharedEntry || kind == SectionKind::SharedGlobal;
    }

    // Where it went.
    OutputSection *out = nullptr;
    uint64_t outOffset = 0;
    // The other outputs holding it, at the same outOffset: a device
    // function's constants, copied into the bank of every kernel that
    // reaches it (FunctionBanks.cpp), and their Mercury twins.
    std::vector<OutputSection *> copies;

    // A .nv.info.<f> of a function whose first copy of the same name in
    // this input gives the attributes (nvlink finds them by name;
    // MercurySet.cpp): its bytes are that copy's.
    const InputSection *attributesFrom = nullptr;

    std::string_view name() const { return header->name; }
    ByteView bytes() const { return attributesFrom ? attributesFrom->bytes() : header->data; }
    uint64_t size() const { return attributesFrom ? attributesFrom->size() : header->size; }
    // What reaches the output: size() unless linked record by record.
    uint64_t linkedSize() const {
        return records.active ? records.linkedSize : rewritten.empty() ? size() : rewritten.size();
    }
    std::optional<uint64_t> linkedOffset(uint64_t inputOffset) const {
        return records.active ? records.linkedOffset(inputOffset) : inputOffset;
    }
    // Where an input byte went; a dropped one, where the first kept byte
    // after it went (the end maps to the end).
    uint64_t linkedAtOrAfter(uint64_t inputOffset) const {
        if (std::optional<uint64_t> at = linkedOffset(inputOffset))
            return *at;
        for (const RecordLayout::Range &r : records.kept)
            if (r.begin >= inputOffset)
                return r.linked;
        return linkedSize();
    }
    uint64_t alignment() const { return header->addralign ? header->addralign : 1; }
};

// A piece of an output section.
struct SectionPiece {
    InputSection *input = nullptr;
    uint64_t offset = 0;
};

struct OutputSection {
    std::string name;
    uint32_t type = 0;
    uint64_t flags = 0;
    uint64_t addralign = 1;
    uint64_t entsize = 0;
    // Links are resolved by the writer: the section/symbol they point to.
    OutputSection *linkSection = nullptr;  // sh_link (symtab for most)
    OutputSection *infoSection = nullptr;  // sh_info as a section index
    Symbol *infoSymbol = nullptr;          // sh_info as a symbol index (.text)
    uint32_t infoHighByte = 0;             // .text sh_info bits 24-31 (regs)
    uint32_t rawInfo = 0;                  // sh_info when neither of the above
    bool linkToSymtab = false;

    SectionKind kind = SectionKind::Ignored;
    uint32_t bank = 0;
    Symbol *owner = nullptr;               // per-function sections
    std::vector<SectionPiece> pieces;      // input bytes at offsets
    std::vector<uint8_t> synthetic;        // bytes the linker made (when no pieces)
    // For synthetic sections whose bytes name final symbol indices: run by
    // the writer once symbols are numbered, fills `synthetic`.
    std::function<void(OutputSection &)> build;
    uint64_t size = 0;                     // for NOBITS: the memory size
    std::vector<RelocApply> applies;       // relocations patched into it
    // Shared windows (a kernel's, module shared under -g) are laid out per
    // variable, not per input section: what the layout put where, by
    // offset, recorded only when a link map is asked for. A null variable
    // is the reserved region.
    struct WindowEntry {
        const Symbol *variable = nullptr;
        uint64_t offset = 0;
    };
    std::vector<WindowEntry> windowContents;
    bool keepWhenEmpty = false;            // written even at size 0
    bool dropped = false;                  // left out by the layout
    // A shared-memory window with variables in it (not only the
    // reservation and dynamic shared memory); set by the layout.
    bool holdsVariables = false;
    // The Mercury shadow set: a Mercury output section's SASS twin (null for
    // its relocation sections), the culd_mercury_kind of its inputs, and the
    // section whose bytes it shares (alias sections have no bytes of their
    // own). A SASS section points at its shadow.
    OutputSection *twin = nullptr;
    OutputSection *shadow = nullptr;
    OutputSection *aliasOf = nullptr;
    uint8_t mercuryKind = 0;
    bool linkToMercurySymtab = false;
    // Its relocation section is written even when every relocation into it
    // was applied: its Mercury twin keeps one (Relocations.cpp).
    bool keepsRelocationSection = false;

    // Set by the writer.
    uint32_t index = 0;
    uint64_t fileOffset = 0;               // sh_offset (for the link map)
    Symbol *sectionSymbol = nullptr;

    // No file bytes: SHT_NOBITS, and under -r the CUDA memory-space types
    // that keep their own section type (.nv.global, .nv.shared.*, ...).
    bool isNobits() const { return !sectionHasFileData(type, flags); }
    bool isSharedMemory() const {
        return kind == SectionKind::SharedEntry || kind == SectionKind::SharedGlobal;
    }
};

} // namespace culd
