// The CUDA metadata views of culd-dump: .nv.info*, .nv.compat,
// .nv.callgraph, .nv.prototype, .nv.rel.action and the NVIDIA notes.
#include "Dumper.h"

#include "culd/CubinInfo.h"
#include "culd/NvInfo.h"

#include <spdlog/fmt/fmt.h>

namespace culd {

namespace {

std::string wordList(const NvInfoRecord &r) {
    std::string text;
    for (size_t i = 0; i < r.wordCount(); ++i)
        text += fmt::format("{}{:#x}", i ? " " : "", r.word(i));
    return text;
}

std::string byteList(ByteView bytes) {
    std::string text;
    for (uint64_t i = 0; i < bytes.size; ++i)
        text += fmt::format("{}{:02x}", i ? " " : "", bytes.data[i]);
    return text;
}

// Payloads without a known shape: words when they divide evenly.
std::string rawPayload(const NvInfoRecord &r) {
    if (r.payload.size % 4 == 0)
        return "words: " + wordList(r);
    return "bytes: " + byteList(r.payload);
}

std::string decAndHex(uint64_t v) { return fmt::format("{} ({:#x})", v, v); }

std::string cudaVersionText(uint32_t v) { return fmt::format("{}.{}", v / 10, v % 10); }

std::string kparamText(const KparamInfo &k) {
    return fmt::format("index {} ordinal {} offset {:#x} size {} align 2^{} space {} cbank {} {}",
                       k.index, k.ordinal, k.offset, k.size, k.logAlignment, k.space, k.cbank,
                       k.isCbank ? "CBANK" : "not-CBANK");
}

std::string slotText(const RelActionSlot &s) {
    return fmt::format("[src {} width {} -> bit {}]", s.sourceBit, s.width, s.destBit);
}

bool isEmptyAction(const RelActionRecord &r) {
    return r.kind == 0 && r.shift == 0 && r.slots[0].width == 0 && r.slots[1].width == 0;
}

} // namespace

void Dumper::printNvInfoSections() {
    for (const ElfSection &s : elf_.sections()) {
        switch (s.type) {
        case elf::SHT_CUDA_INFO:
        case elf::SHT_CUDA_MERC_INFO:
            printNvInfo(s);
            break;
        case elf::SHT_CUDA_COMPAT:
            printCompat(s);
            break;
        case elf::SHT_CUDA_CALLGRAPH:
            printCallGraph(s);
            break;
        case elf::SHT_CUDA_PROTOTYPE:
            printPrototypes(s);
            break;
        case elf::SHT_CUDA_RELOCINFO:
            printRelAction(s);
            break;
        default:
            break;
        }
    }
}

void Dumper::printNvInfo(const ElfSection &section) {
    std::vector<NvInfoRecord> records = parseNvInfo(section.data, context(section));
    std::string owner;
    if (section.flags & elf::SHF_INFO_LINK)
        owner = ", for " + sectionLabel(section.infoIndex());
    line("");
    line(fmt::format("Attributes {} {}{}, symbols {} ({} records):", sectionLabel(section.index),
                     sectionTypeName(section.type), owner, sectionLabel(section.link),
                     records.size()));
    for (const NvInfoRecord &r : records)
        line(fmt::format("  {:#06x} {:<10} {:<36} {}", r.offset, eiFormatName(r.format),
                         eiattrName(r.code), describeRecord(r, section)));
}

std::string Dumper::describeRecord(const NvInfoRecord &r, const ElfSection &section) {
    switch (r.format) {
    case EIFMT_NVAL:
        return r.value ? fmt::format("(field {:#x})", r.value) : "";
    case EIFMT_BVAL:
    case EIFMT_HVAL:
        return fmt::format("{:#x} ({})", r.value, r.value);
    default:
        return describeSval(r, section);
    }
}

std::string Dumper::describeSval(const NvInfoRecord &r, const ElfSection &section) {
    const EiattrInfo *info = eiattrInfo(r.code);
    EiPayload kind = info ? info->payload : EiPayload::Opaque;
    uint64_t size = r.payload.size;
    if (kind == EiPayload::SymbolValue && size == 8)
        return fmt::format("sym {} value {}", symbolRef(section, r.word(0)), decAndHex(r.word(1)));
    if (kind == EiPayload::Symbol && size == 4)
        return "sym " + symbolRef(section, r.word(0));
    if (kind == EiPayload::Word && size == 4)
        return decAndHex(r.word(0));
    if (kind == EiPayload::ParamCbank && size == 8)
        return fmt::format("sym {} offset {:#x} size {:#x}", symbolRef(section, r.word(0)),
                           r.word(1) & 0xFFFF, r.word(1) >> 16);
    if (kind == EiPayload::KparamInfo && size == 12)
        return kparamText(decodeKparamInfo(r, context(section)));
    if (kind == EiPayload::SymbolList && size % 4 == 0) {
        std::string text = "syms:";
        for (size_t i = 0; i < r.wordCount(); ++i)
            text += " " + symbolRef(section, r.word(i));
        return text;
    }
    if ((kind == EiPayload::Offsets || kind == EiPayload::BankOffsets) && size % 4 == 0)
        return "offsets: " + wordList(r);
    if (kind == EiPayload::OffsetPairs && size % 8 == 0) {
        std::string text = "offset/datum:";
        for (size_t i = 0; i + 1 < r.wordCount(); i += 2)
            text += fmt::format(" {:#x}/{:#x}", r.word(i), r.word(i + 1));
        return text;
    }
    return rawPayload(r);
}

void Dumper::printCompat(const ElfSection &section) {
    std::vector<NvInfoRecord> records = parseNvInfo(section.data, context(section));
    line("");
    line(fmt::format("Compatibility attributes {} {} ({} records):", sectionLabel(section.index),
                     sectionTypeName(section.type), records.size()));
    for (const NvInfoRecord &r : records) {
        std::string value = r.format == EIFMT_SVAL   ? rawPayload(r)
                            : r.format == EIFMT_NVAL ? std::string()
                                                     : fmt::format("{:#x} ({})", r.value, r.value);
        line(fmt::format("  {:#06x} {:<10} {:<48} {}", r.offset, eiFormatName(r.format),
                         eicompatName(r.code), value));
    }
}

void Dumper::printCallGraph(const ElfSection &section) {
    std::vector<CallGraphEntry> entries = parseCallGraph(section.data, context(section));
    const ElfSection *strtab = stringTableOf(section);
    line("");
    line(fmt::format("Call graph {} ({} records):", sectionLabel(section.index), entries.size()));
    for (const CallGraphEntry &e : entries) {
        if (e.isMarker) {
            line(fmt::format("  {} (marker {:#x}):", callGraphGroupName(e.group), e.second));
            continue;
        }
        bool secondIsPrototype = e.group == CallGraphGroup::AddressTaken ||
                                 e.group == CallGraphGroup::IndirectCalls;
        std::string second = fmt::format("{}", symbolRef(section, e.second));
        if (secondIsPrototype)
            second = fmt::format("prototype @{} \"{}\"", e.second,
                                 strtab ? elf_.stringAt(*strtab, e.second) : "?");
        line(fmt::format("    {} -> {}", symbolRef(section, e.first), second));
    }
}

const ElfSection *Dumper::stringTableOf(const ElfSection &section) const {
    const auto &sections = elf_.sections();
    if (section.link == 0 || section.link >= sections.size())
        return nullptr;
    uint32_t strtab = sections[section.link].link;
    if (strtab == 0 || strtab >= sections.size() || sections[strtab].type != elf::SHT_STRTAB)
        return nullptr;
    return &sections[strtab];
}

void Dumper::printPrototypes(const ElfSection &section) {
    std::vector<PrototypeEntry> entries = parsePrototypes(section.data, context(section));
    const ElfSection *strtab = stringTableOf(section);
    line("");
    line(fmt::format("Prototypes {} ({} entries):", sectionLabel(section.index), entries.size()));
    for (const PrototypeEntry &p : entries)
        line(fmt::format("  {} prototype @{} \"{}\"", symbolRef(section, p.symbol), p.stringOffset,
                         strtab ? elf_.stringAt(*strtab, p.stringOffset) : "?"));
}

void Dumper::printRelAction(const ElfSection &section) {
    RelActionTable table = parseRelAction(section.data, context(section));
    line("");
    line(fmt::format("Relocation actions {} (first: {}, {} records):",
                     sectionLabel(section.index), relocTypeName(table.firstType),
                     table.records.size()));
    if (table.reserved != 0)
        line(fmt::format("  header word 1: {:#x}", table.reserved));
    for (const RelActionRecord &r : table.records) {
        if (isEmptyAction(r)) {
            line(fmt::format("  {:<40} (empty)", relocTypeName(r.type)));
            continue;
        }
        line(fmt::format("  {:<40} {} shift {} {} {}", relocTypeName(r.type),
                         relActionKindName(r.kind), r.shift, slotText(r.slots[0]),
                         slotText(r.slots[1])));
    }
}

void Dumper::printNotes() {
    for (const ElfSection &s : elf_.sections())
        if (s.type == elf::SHT_NOTE)
            printNote(s);
}

void Dumper::printNote(const ElfSection &section) {
    SectionContext where = context(section);
    std::vector<ElfNote> notes = parseNotes(section.data, where);
    line("");
    line(fmt::format("Notes {} ({} notes):", sectionLabel(section.index), notes.size()));
    for (const ElfNote &n : notes) {
        std::string head = fmt::format("  {:#06x} owner \"{}\" type {}", n.offset, n.owner, n.type);
        if (n.type == NT_CUDA_CUINFO && n.owner == "NVIDIA Corp") {
            CuInfoNote c = decodeCuInfo(n, where);
            line(fmt::format("{} (cuinfo): version {}, sm_{}, CUDA {} ({:#x})", head, c.version,
                             c.sm, cudaVersionText(c.cudaVersion), c.cudaVersion));
        } else if (n.type == NT_CUDA_TKINFO && n.owner == "NVIDIA Corp") {
            TkInfoNote t = decodeTkInfo(n, where);
            line(fmt::format("{} (tkinfo): version {}", head, t.version));
            line(fmt::format("      object  \"{}\"", t.objectName));
            line(fmt::format("      tool    \"{}\"", t.toolName));
            line(fmt::format("      version \"{}\"", t.toolVersion));
            line(fmt::format("      branch  \"{}\"", t.toolBranch));
            line(fmt::format("      options \"{}\"", t.toolOptions));
        } else {
            line(fmt::format("{}: {}", head, byteList(n.desc)));
        }
    }
}

} // namespace culd
