// The Mercury shadow set of sm_100+ cubins: next to its SASS, every such
// cubin carries capsule code (.nv.capmerc.text.<f>) and .nv.merc.* copies of
// its info, relocation, debug and data sections, with a symbol table of its
// own (.nv.merc.symtab) that mirrors .symtab entry for entry. nvlink links
// the two sets side by side (docs/nvlink-findings.md, "Blackwell"):
//
//  * a Mercury section follows its SASS twin: it lives and dies with it, and
//    its output is made wherever the twin's is (per function, merged by
//    name, or sharing the twin's very bytes for the alias sections);
//  * its relocations are scanned like the SASS ones, section symbols
//    standing for the Mercury twins (Relocations.cpp);
//  * its info sections are rebuilt as the SASS ones (SyntheticSections.cpp);
//  * the output symbol table is mirrored into .nv.merc.symtab (Writer.cpp).
//
// The core knows no Mercury name: the plugin classifies the sections and
// names each one's twin (Target::mercuryKind, Target::mercuryTwinName).
#include "culd/Align.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Link.h"
#include "culd/NvInfo.h"
#include "culd/Strings.h"

#include <unordered_map>

namespace culd {

using namespace elf;

namespace {

[[noreturn]] void refuse(const ObjectFile &file, std::string_view section, const std::string &why) {
    throw FatalError(file.name() + ": section '" + std::string(section) + "': " + why +
                     "; culd does not link such a Mercury shadow set yet");
}

// The Mercury symbol table must name the same symbols as .symtab, index for
// index (relocations and info records of both sets then mean the same
// symbol by the same number); .symtab may go on with the section symbols of
// constant banks, which have no Mercury twin.
void checkMirror(const ObjectFile &file) {
    const std::vector<ElfSymbol> &sass = file.elf().symbols();
    const std::vector<ElfSymbol> &merc = file.mercurySymbols;
    if (merc.size() > sass.size())
        refuse(file, file.mercurySymtab->name, "it has more symbols than .symtab");
    for (size_t i = 1; i < sass.size(); ++i) {
        if (i >= merc.size()) {
            if (sass[i].type() != STT_SECTION)
                refuse(file, file.mercurySymtab->name,
                       "symbol " + std::to_string(i) + " of .symtab has no Mercury twin");
            continue;
        }
        // Section symbols name their own sections (`.nv.constant.user` for
        // .nv.constant3's alias): only their kind must agree.
        bool section = sass[i].type() == STT_SECTION;
        if ((!section && merc[i].name != sass[i].name) || merc[i].bind() != sass[i].bind() ||
            section != (merc[i].type() == STT_SECTION) ||
            merc[i].isUndefined() != sass[i].isUndefined())
            refuse(file, file.mercurySymtab->name,
                   "symbol " + std::to_string(i) + " ('" + std::string(merc[i].name) +
                       "') differs from .symtab's");
    }
}

// The SASS section an alias shares its bytes with.
InputSection *aliasTwin(ObjectFile &file, const InputSection &alias) {
    for (InputSection *s : file.sections)
        if (s && s->kind != SectionKind::Mercury && s->header->offset == alias.header->offset &&
            s->size() == alias.size() && s->header->hasFileData())
            return s;
    return nullptr;
}

class Pairing {
public:
    Pairing(Context &ctx, ObjectFile &file) : ctx_(ctx), file_(file) {
        for (InputSection *s : file.sections)
            if (s && s->kind != SectionKind::Mercury)
                sassByName_[s->name()].push_back(s);
    }

    void run() {
        // Capsules first: the other per-function sections find their
        // function through them (twinNamed).
        for (InputSection *s : file_.sections)
            if (s && s->kind == SectionKind::Mercury && s->mercuryKind == CULD_MERC_CODE)
                pair(*s);
        for (InputSection *s : file_.sections)
            if (s && s->kind == SectionKind::Mercury && s->mercuryKind != CULD_MERC_CODE)
                pair(*s);
        if (!file_.mercurySymtab && hasShadows_)
            refuse(file_, "", "Mercury sections without a Mercury symbol table");
        if (file_.mercurySymtab)
            checkMirror(file_);
    }

private:
    void pair(InputSection &s) {
        switch (s.mercuryKind) {
        case CULD_MERC_SYMTAB:
            if (file_.mercurySymtab)
                refuse(file_, s.name(), "a second Mercury symbol table");
            file_.mercurySymtab = s.header;
            file_.mercurySymbols = file_.elf().symbolsOf(*s.header);
            return;
        case CULD_MERC_RELA:
            return pairRelocations(s);
        case CULD_MERC_ALIAS:
            return follow(s, aliasTwin(file_, s));
        case CULD_MERC_FUNCTION_BANK:
            return follow(s, functionBankTwin(s));
        default:
            return follow(s, twinNamed(ctx_.target.mercuryTwinName(s.name()), s));
        }
    }

    // The SASS section of that name. An -r output of several units holds a
    // unit-static function of each (the math library's
    // __internal_trig_reduction_slowpathd) and so several sections of one
    // name: the twin is then the one of the Mercury section's function.
    InputSection *twinNamed(std::string_view name, const InputSection &s) const {
        auto it = name.empty() ? sassByName_.end() : sassByName_.find(name);
        if (it == sassByName_.end())
            return nullptr;
        if (it->second.size() == 1)
            return it->second.front();
        const InputSection *text = functionCode(s);
        for (InputSection *candidate : it->second)
            if (text && candidate->text == text)
                return candidate;
        return nullptr;
    }

    // The .text of a Mercury section's function: a capsule names the
    // function's symbol (sh_info), its other sections the capsule.
    const InputSection *functionCode(const InputSection &s) const {
        uint32_t info = s.header->infoIndex();
        if (s.mercuryKind == CULD_MERC_CODE) {
            const std::vector<ElfSymbol> &symbols = file_.elf().symbols();
            return info < symbols.size() ? sectionAt(symbols[info].shndx) : nullptr;
        }
        const InputSection *target = sectionAt(info);
        if (target && target->kind == SectionKind::Mercury)
            return target->twin;
        return target ? target->text : nullptr;
    }

    const InputSection *sectionAt(uint32_t index) const {
        return index < file_.sections.size() ? file_.sections[index] : nullptr;
    }

    // A function's compiler constants: the twin is the function's bank of
    // the target's optimizer bank number.
    InputSection *functionBankTwin(const InputSection &s) const {
        std::string_view function = ctx_.target.mercuryTwinName(s.name());
        uint32_t bank = ctx_.target.optimizerConstantBank();
        if (function.empty() || bank == 0)
            return nullptr;
        std::string twinName = ".nv.constant" + std::to_string(bank) + "." + std::string(function);
        return twinNamed(twinName, s);
    }

    // A Mercury section takes its twin's function, so it is live exactly
    // when the twin is.
    void follow(InputSection &s, InputSection *twin) {
        if (!twin)
            refuse(file_, s.name(), "no SASS section it shadows");
        if (twin->shadow)
            refuse(file_, s.name(), "SASS section '" + std::string(twin->name()) +
                                        "' has a second Mercury shadow");
        hasShadows_ = true;
        s.twin = twin;
        s.owner = twin->owner;
        s.text = twin->text;
        twin->shadow = &s;
    }

    // Mercury relocations patch Mercury sections (sh_info).
    void pairRelocations(InputSection &s) {
        uint32_t target = s.header->infoIndex();
        InputSection *patched = target < file_.sections.size() ? file_.sections[target] : nullptr;
        if (!patched || patched->kind != SectionKind::Mercury)
            refuse(file_, s.name(), "Mercury relocations for a section that is not Mercury");
        s.owner = patched->owner;
        file_.mercuryRelocSections.push_back({s.header, patched});
    }

    Context &ctx_;
    ObjectFile &file_;
    std::unordered_map<std::string_view, std::vector<InputSection *>> sassByName_;
    bool hasShadows_ = false;
};

// The relocation sections of a file by the section they patch.
using RelocList = std::vector<std::pair<const ElfSection *, InputSection *>>;
using RelocsOf = std::unordered_map<const InputSection *, const ElfSection **>;
RelocsOf indexByTarget(RelocList &list) {
    RelocsOf index;
    for (auto &[header, target] : list)
        index.emplace(target, &header);
    return index;
}

// Whether two relocation sections patch the same places the same way, each
// naming a symbol of the same name and type.
bool sameButForSymbols(const ObjectFile &file, const ElfSection &a, const ElfSection &b) {
    std::vector<ElfReloc> ra = file.elf().relocations(a), rb = file.elf().relocations(b);
    const std::vector<ElfSymbol> &symbols = file.elf().symbols();
    auto sameSymbol = [&](uint32_t i, uint32_t j) {
        return i < symbols.size() && j < symbols.size() && symbols[i].name == symbols[j].name &&
               symbols[i].type() == symbols[j].type();
    };
    if (ra.size() != rb.size())
        return false;
    for (size_t i = 0; i < ra.size(); ++i)
        if (ra[i].offset != rb[i].offset || ra[i].type != rb[i].type ||
            ra[i].addend != rb[i].addend || !sameSymbol(ra[i].symbol, rb[i].symbol))
            return false;
    return true;
}

// Gives `copy` the relocations of `first` in one of the two sets.
void useFirstCopys(const ObjectFile &file, const RelocsOf &relocsOf, const InputSection &first,
                   const InputSection &copy) {
    auto mine = relocsOf.find(&copy), theirs = relocsOf.find(&first);
    if (mine == relocsOf.end() && theirs == relocsOf.end())
        return;
    if (mine == relocsOf.end() || theirs == relocsOf.end() ||
        !sameButForSymbols(file, **mine->second, **theirs->second))
        throw FatalError(file.name() + ": function '" + functionName(copy) +
                         "' is defined more than once with different relocations; nvlink "
                         "would patch every copy with the first one's, so culd refuses it");
    *mine->second = *theirs->second;
}

using AttributesOf = std::unordered_map<const InputSection *, InputSection *>;

// Each function's .nv.info.<f> in `file`, by its .text.
AttributesOf indexAttributes(const ObjectFile &file) {
    AttributesOf of;
    for (InputSection *s : file.sections)
        if (s && s->kind == SectionKind::NvInfoFunc && s->text)
            of[s->text] = s;
    return of;
}

// Whether two attribute sections (either may be absent) hold the same bytes.
bool sameAttributes(const InputSection *a, const InputSection *b) {
    return a && b ? sameBytes(a->bytes(), b->bytes()) : a == b;
}

// Whether two attribute sections are both there and the same but for their
// EXTERNS records.
bool differOnlyInExterns(const ObjectFile &file, const InputSection *a, const InputSection *b) {
    if (!a || !b)
        return false;
    auto others = [&](const InputSection &s) {
        std::vector<NvInfoRecord> kept;
        for (const NvInfoRecord &r : parseNvInfo(s.bytes(), {file.name(), s.name()}))
            if (r.code != EIATTR_EXTERNS)
                kept.push_back(r);
        return kept;
    };
    std::vector<NvInfoRecord> x = others(*a), y = others(*b);
    return std::equal(x.begin(), x.end(), y.begin(), y.end(),
                      [](const NvInfoRecord &r, const NvInfoRecord &s) {
                          return r.format == s.format && r.code == s.code && r.value == s.value &&
                                 sameBytes(r.payload, s.payload);
                      });
}

// nvlink finds a function's .nv.info.<f> by name too: every copy takes the
// first copy's attributes. Where an -r output of units with the device
// runtime has one copy list a launched kernel in EXTERNS (nvlink's -r put
// it there) the final link gives every copy, and the kernels calling it,
// what the first copy lists: the entry where the first has it, none where
// only a later one does (difftest seeds 88001, 100400, 100711, 102583,
// 102648 with three copies, 102692; sm_100-sm_121 two-step links), in
// both sets. Copies whose attributes differ otherwise are not measured:
// refused.
void useFirstCopysAttributes(const ObjectFile &file, const AttributesOf &attributesOf,
                             const InputSection &first, const InputSection &copy) {
    auto attributes = [&](const InputSection &text) -> InputSection * {
        auto it = attributesOf.find(&text);
        return it == attributesOf.end() ? nullptr : it->second;
    };
    InputSection *theirs = attributes(first), *mine = attributes(copy);
    if (sameAttributes(theirs, mine))
        return;
    InputSection *theirShadow = theirs ? theirs->shadow : nullptr;
    InputSection *myShadow = mine ? mine->shadow : nullptr;
    if (!differOnlyInExterns(file, theirs, mine) ||
        !(sameAttributes(theirShadow, myShadow) ||
          differOnlyInExterns(file, theirShadow, myShadow)))
        throw FatalError(file.name() + ": function '" + functionName(copy) +
                         "' is defined more than once with different attributes (.nv.info); "
                         "nvlink finds them by name, which culd does not model here");
    mine->attributesFrom = theirs;
    if (myShadow)
        myShadow->attributesFrom = theirShadow;
}

// nvlink finds a function's relocations by the function's name. An input
// holding several local functions of one name (an -r output of units that
// each carry the math library's __internal_trig_reduction_slowpathd) thus
// has every copy patched with the first copy's relocations, SASS and
// Mercury, naming the first copy's symbols: all copies of that function
// read the first unit's __cudart_i2opi_d (measured, sm_100 and sm_120, final
// and -r links; sm_89 keeps each copy's own). Where the copies' relocations
// differ nvlink's output patches the wrong instructions: refused.
void patchCopiesAsTheFirst(ObjectFile &file) {
    std::unordered_map<std::string_view, const InputSection *> firstOfName;
    std::vector<std::pair<const InputSection *, const InputSection *>> copies; // (first, copy)
    for (InputSection *s : file.sections)
        if (s && s->kind == SectionKind::Text && s->shadow) {
            auto [it, isFirst] = firstOfName.emplace(s->name(), s);
            if (!isFirst)
                copies.push_back({it->second, s});
        }
    if (copies.empty())
        return;
    const RelocsOf sass = indexByTarget(file.relocSections);
    const RelocsOf mercury = indexByTarget(file.mercuryRelocSections);
    const AttributesOf attributesOf = indexAttributes(file);
    for (auto [first, copy] : copies) {
        useFirstCopysAttributes(file, attributesOf, *first, *copy);
        useFirstCopys(file, sass, *first, *copy);
        useFirstCopys(file, mercury, *first->shadow, *copy->shadow);
    }
}

} // namespace

void pairMercurySections(Context &ctx, ObjectFile &file) {
    if (!ctx.target.linksMercurySet())
        return;
    Pairing(ctx, file).run();
    patchCopiesAsTheFirst(file);
}

namespace {

// Sections the linker writes itself (.nv.info*): their Mercury twins are
// rebuilt with them (SyntheticSections.cpp), not placed here.
bool isRebuilt(const OutputSection &sass) {
    return sass.kind == SectionKind::NvInfo || sass.kind == SectionKind::NvInfoFunc;
}

// Named as its twin's output was: a kernel's bank holding a device
// function's constants takes the kernel's name in both sets.
OutputSection *makeShadowOutput(Context &ctx, OutputSection &sass, const InputSection &first) {
    OutputSection *out = ctx.makeOutput(renamedLike(first.name(), first.twin->name(), sass.name),
                                        first.header->type, first.header->flags);
    out->kind = SectionKind::Mercury;
    out->mercuryKind = first.mercuryKind;
    out->twin = &sass;
    out->owner = sass.owner;
    out->entsize = first.header->entsize;
    out->linkToMercurySymtab = first.header->link != 0;
    sass.shadow = out;
    return out;
}

// An alias shares its twin's bytes: same offset, same size.
void makeAlias(Context &ctx, OutputSection &sass, InputSection &alias) {
    OutputSection *out = makeShadowOutput(ctx, sass, alias);
    out->aliasOf = &sass;
    out->addralign = sass.addralign;
    out->size = sass.size;
    for (const SectionPiece &p : sass.pieces)
        if (p.input->shadow) {
            p.input->shadow->out = out;
            p.input->shadow->outOffset = p.input->outOffset;
        }
}

// Anything else is its twin's pieces' shadows, concatenated in the twin's
// order, each at its own alignment.
void makeConcatenation(Context &ctx, OutputSection &sass, InputSection &first) {
    OutputSection *out = makeShadowOutput(ctx, sass, first);
    const bool perVariable = sass.kind == SectionKind::SharedReserved && !ctx.opts.relocatable;
    // The reserved shared memory is laid out per variable that won
    // (ReservedShared.cpp); its Mercury twin holds the copies of the
    // sections that hold one (sm_110: one 0x80-byte copy however many
    // inputs have it, whose string-table size the plugin's finaliser
    // rewrites as nvlink does).
    ReservedSharedVariables winners;
    if (perVariable)
        winners = reservedSharedVariables(ctx);
    // Under -r the copies whose variables lost are gone already
    // (OutputSections.cpp); several that still hold winners are not
    // measured, and culd would concatenate them.
    if (sass.kind == SectionKind::SharedReserved && ctx.opts.relocatable &&
        sass.pieces.size() > 1)
        refuse(*sass.pieces[1].input->file, sass.name,
               "reserved shared memory that several inputs define, which nvlink merges "
               "into one copy under -r");
    for (const SectionPiece &p : sass.pieces) {
        InputSection *shadow = p.input->shadow;
        if (!shadow || !shadow->isLive())
            continue;
        if (perVariable && !winners.count(p.input)) {
            shadow->live = false; // a copy that lost, dropped with its variable
            continue;
        }
        uint64_t offset = alignTo(out->size, shadow->alignment());
        out->pieces.push_back({shadow, offset});
        out->size = offset + shadow->linkedSize();
        out->addralign = std::max(out->addralign, shadow->alignment());
        shadow->out = out;
        shadow->outOffset = offset;
    }
}

// A kernel's bank of compiler constants: each piece's shadow at its twin's
// offset, so the twin's size and holes are the shadow's too. A device
// function's shadow is in every bank its twin was copied to.
void makeMirror(Context &ctx, OutputSection &sass, InputSection &first) {
    OutputSection *out = makeShadowOutput(ctx, sass, first);
    out->size = sass.size;
    out->addralign = sass.addralign;
    for (const SectionPiece &p : sass.pieces) {
        InputSection *shadow = p.input->shadow;
        if (!shadow || !shadow->isLive())
            continue;
        if (shadow->size() != p.input->size())
            refuse(*shadow->file, shadow->name(),
                   "its size differs from its SASS twin '" + std::string(p.input->name()) + "'");
        out->pieces.push_back({shadow, p.offset});
        if (!shadow->out) {
            shadow->out = out;
            shadow->outOffset = p.offset;
        } else {
            shadow->copies.push_back(out);
        }
    }
}

} // namespace

void createMercurySections(Context &ctx) {
    std::vector<OutputSection *> sass(ctx.outputs.begin(), ctx.outputs.end());
    for (OutputSection *o : sass) {
        if (o->kind == SectionKind::Mercury || isRebuilt(*o))
            continue;
        InputSection *first = nullptr;
        for (const SectionPiece &p : o->pieces)
            if (p.input->shadow && p.input->shadow->isLive()) {
                first = p.input->shadow;
                break;
            }
        if (!first)
            continue;
        if (first->mercuryKind == CULD_MERC_ALIAS)
            makeAlias(ctx, *o, *first);
        else if (first->mercuryKind == CULD_MERC_FUNCTION_BANK)
            makeMirror(ctx, *o, *first);
        else
            makeConcatenation(ctx, *o, *first);
    }
    // A kernel's bank names the kernel's code, as its twin does: in the
    // Mercury set, the capsule.
    for (OutputSection *o : ctx.outputs)
        if (o->mercuryKind == CULD_MERC_FUNCTION_BANK && o->twin->infoSection)
            o->infoSection = o->twin->infoSection->shadow;
    // Every live Mercury section must have found its place: one whose twin
    // was not placed (laid out per variable, say) is not modelled.
    for (auto &file : ctx.files)
        for (InputSection *s : file->sections)
            if (s && s->twin && s->isLive() && s->twin->out && !s->out &&
                s->mercuryKind != CULD_MERC_INFO)
                refuse(*file, s->name(),
                       "its SASS twin '" + std::string(s->twin->name()) +
                           "' is not placed as a whole");
}

} // namespace culd
