#include "culd/InputFiles.h"

#include "culd/InputChecks.h"

#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Strings.h"

#include <algorithm>
#include <cstring>

namespace culd {

namespace {

// ".nv.constant3" -> bank 3, rest "" ; ".nv.constant0.k" -> bank 0, rest "k".
bool parseConstantName(std::string_view name, uint32_t *bank, std::string_view *rest) {
    constexpr std::string_view prefix = ".nv.constant";
    if (!startsWith(name, prefix))
        return false;
    std::string_view tail = name.substr(prefix.size());
    size_t digits = 0;
    while (digits < tail.size() && tail[digits] >= '0' && tail[digits] <= '9')
        ++digits;
    if (digits == 0 || digits > 2)
        return false;
    *bank = static_cast<uint32_t>(std::stoul(std::string(tail.substr(0, digits))));
    tail = tail.substr(digits);
    if (!tail.empty() && tail[0] != '.')
        return false;
    *rest = tail.empty() ? tail : tail.substr(1);
    return true;
}

} // namespace

const char *sectionKindName(SectionKind kind) {
    switch (kind) {
    case SectionKind::Ignored: return "ignored";
    case SectionKind::Text: return "text";
    case SectionKind::NvInfo: return "nv.info";
    case SectionKind::NvInfoFunc: return "nv.info.<f>";
    case SectionKind::Compat: return "nv.compat";
    case SectionKind::Callgraph: return "nv.callgraph";
    case SectionKind::Prototype: return "nv.prototype";
    case SectionKind::Reloc: return "relocations";
    case SectionKind::ConstantBank: return "constant bank";
    case SectionKind::ConstantEntry: return "per-function constant bank";
    case SectionKind::Global: return "global";
    case SectionKind::GlobalInit: return "initialised global";
    case SectionKind::SharedEntry: return "shared";
    case SectionKind::SharedGlobal: return "module shared";
    case SectionKind::SharedReserved: return "reserved shared";
    case SectionKind::Local: return "local";
    case SectionKind::Debug: return "debug";
    case SectionKind::Mercury: return "mercury";
    case SectionKind::Unsupported: return "unsupported";
    case SectionKind::Note: return "note";
    case SectionKind::RelAction: return "nv.rel.action";
    case SectionKind::Symtab: return "symtab";
    case SectionKind::Strtab: return "strtab";
    case SectionKind::Shstrtab: return "shstrtab";
    }
    return "?";
}

SectionKind classifySection(const ElfSection &s, uint32_t *bank) {
    using namespace elf;
    std::string_view name = s.name;
    if (s.type == SHT_NULL || s.type == SHT_SYMTAB || s.type == SHT_STRTAB ||
        s.type == SHT_SYMTAB_SHNDX || s.type == SHT_NOTE)
        return SectionKind::Ignored;
    // Mercury shadow sections by their flag; the link asks the target's
    // plugin first (Target::mercuryKind), which knows them by name too.
    if (s.flags & SHF_CUDA_MERCURY)
        return SectionKind::Mercury;
    if (s.type == SHT_REL || s.type == SHT_RELA)
        return SectionKind::Reloc;
    if (startsWith(name, ".text.") && (s.flags & SHF_EXECINSTR))
        return SectionKind::Text;
    if (name == ".nv.info")
        return SectionKind::NvInfo;
    if (startsWith(name, ".nv.info."))
        return SectionKind::NvInfoFunc;
    if (name == ".nv.compat")
        return SectionKind::Compat;
    if (name == ".nv.callgraph")
        return SectionKind::Callgraph;
    if (name == ".nv.prototype")
        return SectionKind::Prototype;
    if (name == ".nv.rel.action" || name == ".nv.resolvedrela" ||
        startsWith(name, ".nv.resolvedrela"))
        return SectionKind::Ignored;
    std::string_view rest;
    if (parseConstantName(name, bank, &rest))
        return rest.empty() ? SectionKind::ConstantBank : SectionKind::ConstantEntry;
    if (name == ".nv.global")
        return SectionKind::Global;
    if (name == ".nv.global.init")
        return SectionKind::GlobalInit;
    if (startsWith(name, ".nv.shared.reserved.") || s.type == SHT_CUDA_SHARED_RESERVED)
        return SectionKind::SharedReserved;
    if (name == ".nv_debug.shared")
        return SectionKind::SharedGlobal;
    if (startsWith(name, ".nv.shared."))
        return SectionKind::SharedEntry;
    if (startsWith(name, ".nv.local."))
        return SectionKind::Local;
    if (startsWith(name, ".debug_") || startsWith(name, ".nv_debug_"))
        return SectionKind::Debug;
    return SectionKind::Unsupported;
}

uint32_t cubinSm(const ElfHeader &h) {
    // CUDA 13 (OSABI 0x41, ABI 8): SM in bits 8-15. Older toolkits (ABI 7):
    // SM in bits 0-7 (the virtual SM in bits 16-23).
    if (h.abiVersion >= 8 || h.osabi == elf::ELFOSABI_CUDA_V8)
        return (h.flags >> 8) & 0xFF;
    return h.flags & 0xFF;
}

// Refuses what culd does not model before anything is linked from it.
void ObjectFile::checkModelled() const {
    for (const ElfSection &s : elf_.sections()) {
        checkSectionHeader(name_, s);
        if (s.type == elf::SHT_SYMTAB)
            checkSymbols(name_, s, elf_.symbols());
        uint32_t bank = 0;
        switch (classifySection(s, &bank)) {
        case SectionKind::NvInfo:
        case SectionKind::NvInfoFunc:
            checkNvInfoSection(name_, s);
            break;
        case SectionKind::Compat:
            checkCompatSection(name_, s);
            break;
        default:
            break;
        }
    }
}

InputSection *ObjectFile::makeSection(const ElfSection &header, SectionKind kind) {
    InputSection &s = sectionArena_.emplace_back();
    s.file = this;
    s.header = &header;
    s.kind = kind;
    return &s;
}

std::unique_ptr<ObjectFile> ObjectFile::open(const std::string &path, uint32_t order) {
    return fromBytes(MappedFile::open(path), path, order);
}

std::unique_ptr<ObjectFile> ObjectFile::fromBytes(std::unique_ptr<MappedFile> bytes,
                                                  std::string name, uint32_t order) {
    std::unique_ptr<ObjectFile> file(new ObjectFile());
    file->name_ = std::move(name);
    file->order_ = order;
    file->map_ = std::move(bytes);
    file->elf_ = ElfFile::parse(file->name_, file->map_->bytes());
    const ElfHeader &h = file->elf_.header();
    if (h.machine != elf::EM_CUDA)
        throw FatalError(file->name_ + ": not a CUDA device ELF (e_machine " +
                         std::to_string(h.machine) + ")");
    if (h.type != elf::ET_REL)
        throw FatalError(file->name_ + ": not a relocatable cubin (ELF type " +
                         std::to_string(h.type) + "); only relocatable device code can be linked");
    // OSABI and ABI version come in pairs; nvlink refuses any other mix
    // before it looks at the arch.
    bool v8 = h.osabi == elf::ELFOSABI_CUDA_V8 && h.abiVersion == 8;
    bool v7 = h.osabi == elf::ELFOSABI_CUDA_V7 && h.abiVersion == 7;
    if (!v8 && !v7)
        throw FatalError("Input file '" + file->name_ + "' abi does not match");
    file->sm_ = cubinSm(h);
    checkSharedSymbols(*file);
    file->checkModelled();
    return file;
}

// In a relocatable cubin a shared variable's st_value is its alignment, and
// layout aligns and adds by it: both must be sane before they are trusted.
void ObjectFile::checkSharedSymbols(const ObjectFile &file) {
    for (const ElfSymbol &s : file.elf().symbols()) {
        if ((s.other & 0xE0) != elf::STO_CUDA_SHARED || s.isUndefined())
            continue;
        auto fail = [&](const std::string &what) {
            throw FatalError(file.name() + ": shared variable '" + std::string(s.name) + "': " + what);
        };
        if (s.value & (s.value - 1) || s.value > kMaxSectionAlignment)
            fail("alignment (st_value) " + std::to_string(s.value) +
                 " is not a power of two up to " + std::to_string(kMaxSectionAlignment));
        if (s.size > kMaxSharedVariableSize)
            fail("size " + std::to_string(s.size) + " exceeds " +
                 std::to_string(kMaxSharedVariableSize) + " bytes");
    }
}

} // namespace culd
