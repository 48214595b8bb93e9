// Semantic comparison of two cubins. See CubinDiff.h for the idea and
// docs/culd-diff.md for every normalisation rule.
//
// Everything that is an index in the file (section index, symbol index,
// string offset) is turned into a key - the section's or symbol's name, with
// " #n" added for the n-th of several of the same name - before it is
// compared. Lists whose order carries no meaning are sorted and compared as
// multisets. All of it is O(n log n) in the size of the files.
#include "culd/CubinDiff.h"
#include "culd/Hex.h"

#include "culd/CubinInfo.h"
#include "culd/Diagnostics.h"
#include "culd/Strings.h"
#include "culd/MappedFile.h"
#include "culd/NvInfo.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace culd {

const char *verdictName(CubinDiffVerdict verdict) {
    switch (verdict) {
    case CubinDiffVerdict::Identical:
        return "IDENTICAL";
    case CubinDiffVerdict::Equivalent:
        return "EQUIVALENT";
    case CubinDiffVerdict::Different:
        break;
    }
    return "DIFFERENT";
}

namespace {

std::string signedHex(int64_t value) {
    if (value >= 0)
        return hex(static_cast<uint64_t>(value));
    return "-" + hex(0 - static_cast<uint64_t>(value));
}

std::string quote(std::string_view text) { return "'" + std::string(text) + "'"; }

// Key of the `occurrence`-th (from 1) thing called `name`.
std::string occurrenceKey(std::string_view name, size_t occurrence) {
    std::string key = name.empty() ? std::string("<unnamed>") : std::string(name);
    if (occurrence > 1)
        key += " #" + std::to_string(occurrence);
    return key;
}

// ---------------------------------------------------------------- indices

// One symbol table with the key of each symbol.
struct SymbolTable {
    const ElfSection *section = nullptr;
    const ElfSection *strtab = nullptr; // for strings other sections point at
    std::vector<ElfSymbol> symbols;
    std::vector<std::string> keys;

    std::string ref(uint64_t index) const {
        if (index < keys.size())
            return keys[index];
        return "<bad symbol index " + std::to_string(index) + ">";
    }
};

// A parsed file plus the names that stand in for its indices.
class FileIndex {
public:
    explicit FileIndex(const ElfFile &elf) : file(elf) {
        buildSectionKeys();
        for (const ElfSection &s : file.sections())
            if (s.isSymbolTable())
                buildSymbolTable(s);
    }

    const ElfFile &file;

    std::string sectionRef(uint64_t index) const {
        if (index == 0)
            return "<none>";
        if (index < sectionKeys_.size())
            return sectionKeys_[index];
        return "<bad section index " + std::to_string(index) + ">";
    }

    // The symbol table named by sh_link of `s`, else .symtab, else null.
    const SymbolTable *symbolsFor(const ElfSection &s) const {
        if (const SymbolTable *table = tableAt(s.link))
            return table;
        return tableAt(file.symtabIndex());
    }

    const SymbolTable *tableAt(uint32_t sectionIndex) const {
        auto it = tables_.find(sectionIndex);
        return it == tables_.end() ? nullptr : &it->second;
    }

    // A string of a string table, or a placeholder naming the bad offset.
    std::string stringAt(const ElfSection *strtab, uint32_t offset) const {
        if (!strtab)
            return "<no string table>";
        try {
            return std::string(file.stringAt(*strtab, offset));
        } catch (const FatalError &) {
            return "<bad string offset " + hex(offset) + ">";
        }
    }

    // Where a symbol lives, as a name.
    std::string symbolSection(const ElfSymbol &sym) const {
        switch (sym.rawShndx) {
        case elf::SHN_UNDEF:
            return "UND";
        case elf::SHN_ABS:
            return "ABS";
        case elf::SHN_COMMON:
            return "COMMON";
        default:
            return sectionRef(sym.shndx);
        }
    }

private:
    std::vector<std::string> sectionKeys_;
    std::unordered_map<uint32_t, SymbolTable> tables_;

    void buildSectionKeys() {
        std::unordered_map<std::string_view, size_t> seen;
        for (const ElfSection &s : file.sections())
            sectionKeys_.push_back(s.index == 0 ? std::string("<none>")
                                                : occurrenceKey(s.name, ++seen[s.name]));
    }

    void buildSymbolTable(const ElfSection &s) {
        SymbolTable table;
        table.section = &s;
        if (s.link != 0 && s.link < file.sections().size())
            table.strtab = &file.section(s.link);
        table.symbols = s.index == file.symtabIndex() ? file.symbols() : file.symbolsOf(s);
        // Section symbols are named after their section; the others after
        // themselves, numbered when several share a name (static functions
        // of different TUs, `$str`), which matches them in order.
        std::unordered_map<std::string_view, size_t> seen;
        for (const ElfSymbol &sym : table.symbols) {
            if (sym.index == 0 && sym.name.empty())
                table.keys.push_back("<null symbol>");
            else if (sym.type() == elf::STT_SECTION)
                table.keys.push_back(sectionRef(sym.shndx) + " (section)");
            else
                table.keys.push_back(occurrenceKey(sym.name, ++seen[sym.name]));
        }
        tables_.emplace(s.index, std::move(table));
    }
};

// ---------------------------------------------------------------- rules

// How a section's bytes are compared.
enum class ContentRule {
    None,        // no bytes (NOBITS), or only names that are compared where used
    Bytes,       // byte for byte
    Symbols,     // symbol by symbol, matched by key
    Relocations, // multiset of (offset, type, symbol, addend)
    InfoOrdered, // .nv.info.<f>: records in order
    InfoMultiset,// .nv.info: records as a multiset
    Compat,      // .nv.compat: records in order
    Callgraph,   // pairs of names per group, as a multiset
    Prototype,   // symbol -> prototype string, as a multiset
    ToolkitInfo, // tool records except the linker's own
    Capsule,     // Mercury capsule: bytes, but its first word by the section it names
    StringTableCopy // sm_110's Mercury reserved copy: bytes, its .shstrtab size by name
};

ContentRule contentRule(const ElfSection &s) {
    if (!s.hasFileData())
        return ContentRule::None;
    if (s.isSymbolTable())
        return ContentRule::Symbols;
    if (s.type == elf::SHT_STRTAB || s.type == elf::SHT_SYMTAB_SHNDX ||
        s.name.find("symtab_shndx") != std::string_view::npos)
        return ContentRule::None;
    if (s.isRelocation())
        return ContentRule::Relocations;
    switch (s.type) {
    case elf::SHT_CUDA_INFO:
    case elf::SHT_CUDA_MERC_INFO:
        return s.name == ".nv.info" || s.name == ".nv.merc.nv.info" ? ContentRule::InfoMultiset
                                                                    : ContentRule::InfoOrdered;
    case elf::SHT_CUDA_COMPAT:
        return ContentRule::Compat;
    case elf::SHT_CUDA_CALLGRAPH:
        return ContentRule::Callgraph;
    case elf::SHT_CUDA_PROTOTYPE:
        return ContentRule::Prototype;
    case elf::SHT_CUDA_CAPMERC_TEXT:
        return ContentRule::Capsule;
    default:
        break;
    }
    if (s.name == ".note.nv.tkinfo")
        return ContentRule::ToolkitInfo;
    if (s.name.rfind(".nv.merc.nv.shared.reserved.", 0) == 0)
        return ContentRule::StringTableCopy;
    return ContentRule::Bytes;
}

// Whether sh_size says something about meaning. Not for string tables, nor
// for sections compared as sets (duplicates change the size but not the
// set), nor for the toolkit note, which holds the linker's own record.
bool sizeIsCompared(const ElfSection &s) {
    switch (contentRule(s)) {
    case ContentRule::ToolkitInfo:
        return false;
    case ContentRule::None:
        return s.type != elf::SHT_STRTAB;
    default:
        return true;
    }
}

// `.text.<f>` (and the Mercury capsule) keep a function's symbol index in
// sh_info, with its register count in the top byte on sm_75-89.
bool infoHoldsFunctionSymbol(const ElfSection &s) {
    return startsWith(s.name, ".text.") || startsWith(s.name, ".nv.capmerc.text.") ||
           ((s.flags & elf::SHF_EXECINSTR) && !s.isRelocation());
}

std::string linkRef(const FileIndex &f, const ElfSection &s) {
    return s.link == 0 ? std::string("0") : "section " + quote(f.sectionRef(s.link));
}

std::string infoRef(const FileIndex &f, const ElfSection &s) {
    if (s.isSymbolTable())
        return std::to_string(s.info) + " locals";
    if (infoHoldsFunctionSymbol(s)) {
        const SymbolTable *table = f.symbolsFor(s);
        std::string text = "symbol " + quote(table ? table->ref(s.infoIndex())
                                                   : std::to_string(s.infoIndex()));
        if (uint32_t regs = s.info >> 24)
            text += ", register count " + std::to_string(regs);
        return text;
    }
    if ((s.flags & elf::SHF_INFO_LINK) || s.isRelocation() || startsWith(s.name, ".nv.info."))
        return "section " + quote(f.sectionRef(s.info));
    return hex(s.info);
}

// ---------------------------------------------------------------- decoders

struct RelocEntry {
    uint64_t offset;
    uint32_t type;
    std::string symbol;
    int64_t addend;

    auto tie() const { return std::tie(offset, type, symbol, addend); }
    bool operator<(const RelocEntry &o) const { return tie() < o.tie(); }
    bool operator==(const RelocEntry &o) const { return tie() == o.tie(); }
};

std::vector<RelocEntry> decodeRelocations(const FileIndex &f, const ElfSection &s) {
    const SymbolTable *table = f.symbolsFor(s);
    std::vector<RelocEntry> entries;
    for (const ElfReloc &r : f.file.relocations(s))
        entries.push_back({r.offset, r.type,
                           table ? table->ref(r.symbol) : std::to_string(r.symbol), r.addend});
    std::sort(entries.begin(), entries.end());
    return entries;
}

// A decoded record: `text` is what is compared, `pairKey` says which record
// of the other file it should be shown next to when it differs.
struct Record {
    std::string pairKey;
    std::string text;

    auto tie() const { return std::tie(pairKey, text); }
    bool operator<(const Record &o) const { return tie() < o.tie(); }
    bool operator==(const Record &o) const { return tie() == o.tie(); }
};

// EIATTR_EXTERNS names the functions and kernels a function depends on; the
// loader reads it as a set, so it is compared as one (names sorted).
std::string externsText(const NvInfoRecord &r, const SymbolTable &symbols) {
    std::vector<std::string> names;
    for (size_t i = 0; i < r.wordCount(); ++i)
        names.push_back(quote(symbols.ref(r.word(i))));
    std::sort(names.begin(), names.end());
    std::string text = "{";
    for (size_t i = 0; i < names.size(); ++i)
        text += (i ? ", " : "") + names[i];
    return text + "}";
}

std::string payloadText(const NvInfoRecord &r, const SymbolTable *symbols,
                        std::string *firstSymbol) {
    if (r.code == EIATTR_EXTERNS && symbols && r.payload.size % 4 == 0)
        return externsText(r, *symbols);
    std::vector<uint32_t> symbolWords = symbols ? symbolWordOffsets(r) : std::vector<uint32_t>{};
    std::string text = "{";
    for (size_t i = 0; i < r.wordCount(); ++i) {
        if (i)
            text += ", ";
        uint32_t word = r.word(i);
        bool isSymbol = std::find(symbolWords.begin(), symbolWords.end(), 4 * i) != symbolWords.end();
        if (isSymbol) {
            std::string name = symbols->ref(word);
            if (firstSymbol && firstSymbol->empty())
                *firstSymbol = name;
            text += quote(name);
        } else {
            text += hex(word);
        }
    }
    for (uint64_t i = 4 * r.wordCount(); i < r.payload.size; ++i)
        text += " " + hex(r.payload.data[i]) + "b";
    return text + "}";
}

// Records of an attribute section (.nv.info*, .nv.compat). `symbols` is
// null for .nv.compat, whose payloads hold no symbol indices.
std::vector<Record> decodeAttributes(const FileIndex &f, const ElfSection &s,
                                     const SymbolTable *symbols, bool compat) {
    std::vector<Record> records;
    for (const NvInfoRecord &r : parseNvInfo(s.data, SectionContext{f.file.name(), s.name})) {
        std::string name = compat ? eicompatName(r.code) : eiattrName(r.code);
        Record rec;
        switch (r.format) {
        case EIFMT_NVAL:
            rec.text = name + " NVAL";
            break;
        case EIFMT_BVAL:
        case EIFMT_HVAL:
            rec.text = name + (r.format == EIFMT_BVAL ? " BVAL " : " HVAL ") + hex(r.value);
            break;
        default: {
            std::string firstSymbol;
            rec.text = name + " " + payloadText(r, symbols, &firstSymbol);
            rec.pairKey = firstSymbol.empty() ? name : name + " " + quote(firstSymbol);
            break;
        }
        }
        if (rec.pairKey.empty())
            rec.pairKey = name;
        records.push_back(std::move(rec));
    }
    return records;
}

// .nv.callgraph: pairs of names, each tagged with its group; markers are
// entries too, so an empty group still has to be present on both sides.
std::vector<Record> decodeCallgraph(const FileIndex &f, const ElfSection &s) {
    const SymbolTable *table = f.symbolsFor(s);
    auto sym = [&](uint32_t i) { return quote(table ? table->ref(i) : std::to_string(i)); };
    auto proto = [&](uint32_t off) { return quote(f.stringAt(table ? table->strtab : nullptr, off)); };
    std::vector<Record> entries;
    for (const CallGraphEntry &e : parseCallGraph(s.data, SectionContext{f.file.name(), s.name})) {
        std::string g = std::string(callGraphGroupName(e.group)) + ": ";
        if (e.isMarker) {
            entries.push_back({g, g + "group marker"});
            continue;
        }
        switch (e.group) {
        case CallGraphGroup::DirectCalls:      // caller -> callee
        case CallGraphGroup::FunctionPointers: // referrer -> address-taken function
            entries.push_back({g + sym(e.first), g + sym(e.first) + " -> " + sym(e.second)});
            break;
        case CallGraphGroup::AddressTaken:  // function, its prototype
        case CallGraphGroup::IndirectCalls: // call site, the prototype it calls through
            entries.push_back(
                {g + sym(e.first), g + sym(e.first) + " prototype " + proto(e.second)});
            break;
        default:
            entries.push_back({g + hex(e.first), g + hex(e.first) + " " + hex(e.second)});
        }
    }
    return entries;
}

// .nv.prototype: symbol -> prototype string.
std::vector<Record> decodePrototypes(const FileIndex &f, const ElfSection &s) {
    const SymbolTable *table = f.symbolsFor(s);
    std::vector<Record> entries;
    for (const PrototypeEntry &e : parsePrototypes(s.data, SectionContext{f.file.name(), s.name})) {
        std::string name = quote(table ? table->ref(e.symbol) : std::to_string(e.symbol));
        std::string proto = f.stringAt(table ? table->strtab : nullptr, e.stringOffset);
        entries.push_back({name, name + " prototype " + quote(proto)});
    }
    return entries;
}

// .note.nv.tkinfo: one record per tool, except the linker's own, which
// nvlink and culd write differently by design (name, version, options).
std::vector<Record> decodeToolkitInfo(const FileIndex &f, const ElfSection &s) {
    SectionContext where{f.file.name(), s.name};
    std::vector<Record> records;
    for (const ElfNote &note : parseNotes(s.data, where)) {
        std::string owner = quote(note.owner);
        if (note.type != NT_CUDA_TKINFO) {
            records.push_back({owner, "note " + owner + " type " + std::to_string(note.type) +
                                          ", " + std::to_string(note.desc.size) + " bytes"});
            continue;
        }
        TkInfoNote tk = decodeTkInfo(note, where);
        if (tk.toolName == "nvlink" || tk.toolName == "culd")
            continue;
        records.push_back({"tool " + quote(tk.toolName),
                           "tool " + quote(tk.toolName) + " (format " +
                               std::to_string(tk.version) + ", object " + quote(tk.objectName) +
                               ", version " + quote(tk.toolVersion) + ", branch " +
                               quote(tk.toolBranch) + ", options " + quote(tk.toolOptions) + ")"});
    }
    return records;
}

// ---------------------------------------------------------------- segments

// What a program header covers, with layout taken out.
struct SegmentView {
    std::vector<std::string> sections; // sorted keys
    bool coversHeaderTable = false;
    uint64_t filesz = 0, memsz = 0;    // without inter-section padding
};

SegmentView viewSegment(const FileIndex &f, const ElfProgramHeader &ph) {
    SegmentView view;
    const ElfHeader &h = f.file.header();
    uint64_t begin = ph.offset, end = ph.offset + ph.filesz;
    view.coversHeaderTable = h.phnum && h.phoff >= begin && h.phoff < std::max(end, begin + 1);
    uint64_t dataSize = 0, first = UINT64_MAX, last = 0;
    for (const ElfSection &s : f.file.sections()) {
        if (s.index == 0 || s.size == 0 || !(s.flags & elf::SHF_ALLOC))
            continue;
        bool covered = s.hasFileData()
                           ? s.offset >= begin && s.offset + s.size <= end
                           : ph.memsz > ph.filesz && s.offset >= begin && s.offset <= end;
        if (!covered)
            continue;
        view.sections.push_back(f.sectionRef(s.index));
        if (s.hasFileData()) {
            dataSize += s.size;
            first = std::min(first, s.offset);
            last = std::max(last, s.offset + s.size);
        }
    }
    std::sort(view.sections.begin(), view.sections.end());
    // Padding between sections depends on where the segment starts.
    uint64_t padding = dataSize ? (last - first) - dataSize : 0;
    view.filesz = ph.filesz - padding;
    view.memsz = ph.memsz - padding;
    return view;
}

std::string joinKeys(const std::vector<std::string> &keys, bool headerTable) {
    std::string text;
    for (const std::string &k : keys)
        text += (text.empty() ? "" : " ") + k;
    if (headerTable)
        text += std::string(text.empty() ? "" : " ") + "<program header table>";
    return text.empty() ? "nothing" : text;
}

// ---------------------------------------------------------------- comparer

class Comparer {
public:
    Comparer(const FileIndex &a, const FileIndex &b, const CubinDiffOptions &options,
             std::vector<CubinDifference> &out)
        : a_(a), b_(b), options_(options), out_(out) {}

    void run() {
        compareHeader();
        compareSections();
        compareProgramHeaders();
    }

private:
    const FileIndex &a_, &b_;
    const CubinDiffOptions &options_;
    std::vector<CubinDifference> &out_;

    void add(DiffKind kind, const std::string &subject, std::string message) {
        out_.push_back({kind, subject, std::move(message)});
    }

    void field(DiffKind kind, const std::string &subject, const char *what, uint64_t va,
               uint64_t vb) {
        if (va != vb)
            add(kind, subject, std::string(what) + " " + hex(va) + " vs " + hex(vb));
    }

    void field(DiffKind kind, const std::string &subject, const char *what,
               const std::string &va, const std::string &vb) {
        if (va != vb)
            add(kind, subject, std::string(what) + " " + va + " vs " + vb);
    }

    std::string relocationTypeName(uint32_t type) const {
        if (options_.relocationName)
            return options_.relocationName(type);
        return "type " + hex(type);
    }

    // -- ELF header

    void compareHeader() {
        const ElfHeader &ha = a_.file.header(), &hb = b_.file.header();
        const std::string subject = "ELF header";
        const DiffKind k = DiffKind::Header;
        field(k, subject, "EI_CLASS", ha.elfClass, hb.elfClass);
        field(k, subject, "EI_DATA", ha.ident[5], hb.ident[5]);
        field(k, subject, "EI_VERSION", ha.ident[6], hb.ident[6]);
        field(k, subject, "EI_OSABI", ha.osabi, hb.osabi);
        field(k, subject, "EI_ABIVERSION", ha.abiVersion, hb.abiVersion);
        if (!std::equal(ha.ident + 9, ha.ident + 16, hb.ident + 9))
            add(k, subject, "e_ident padding bytes differ");
        field(k, subject, "e_type", ha.type, hb.type);
        field(k, subject, "e_machine", ha.machine, hb.machine);
        field(k, subject, "e_version", ha.version, hb.version);
        field(k, subject, "e_entry", ha.entry, hb.entry);
        field(k, subject, "e_flags (bits 0-23)", ha.flags & 0xFFFFFF, hb.flags & 0xFFFFFF);
        // The top byte is the index of .note.nv.cuinfo: compare what it names.
        field(k, subject, "e_flags (bits 24-31) section", quote(a_.sectionRef(ha.flags >> 24)),
              quote(b_.sectionRef(hb.flags >> 24)));
        field(k, subject, "e_phnum", ha.phnum, hb.phnum);
        field(k, subject, "e_ehsize", ha.ehsize, hb.ehsize);
        field(k, subject, "e_phentsize", ha.phentsize, hb.phentsize);
        field(k, subject, "e_shentsize", ha.shentsize, hb.shentsize);
    }

    // -- sections

    bool ignored(std::string_view name) const {
        const auto &list = options_.ignoredSections;
        return std::find(list.begin(), list.end(), name) != list.end();
    }

    // Sections of `f` by key, without the null section and ignored ones.
    std::unordered_map<std::string, const ElfSection *> sectionsByKey(const FileIndex &f) const {
        std::unordered_map<std::string, const ElfSection *> map;
        for (const ElfSection &s : f.file.sections())
            if (s.index != 0 && !ignored(s.name))
                map.emplace(f.sectionRef(s.index), &s);
        return map;
    }

    void compareSections() {
        auto inB = sectionsByKey(b_);
        std::vector<std::string> orderA, orderB;
        for (const ElfSection &sa : a_.file.sections()) {
            if (sa.index == 0 || ignored(sa.name))
                continue;
            std::string key = a_.sectionRef(sa.index);
            auto it = inB.find(key);
            if (it == inB.end()) {
                add(DiffKind::Section, "section " + quote(key), "only in A");
                continue;
            }
            orderA.push_back(key);
            compareSection(sa, *it->second, "section " + quote(key));
        }
        auto inA = sectionsByKey(a_);
        for (const ElfSection &sb : b_.file.sections()) {
            if (sb.index == 0 || ignored(sb.name))
                continue;
            std::string key = b_.sectionRef(sb.index);
            if (inA.count(key))
                orderB.push_back(key);
            else
                add(DiffKind::Section, "section " + quote(key), "only in B");
        }
        if (options_.strictOrder)
            compareOrder(DiffKind::Section, "section order", orderA, orderB);
        else if (options_.codeOrder)
            compareOrder(DiffKind::Section, "code order", madeWithCode(orderA),
                         madeWithCode(orderB));
    }

    // The keys of the sections made per function as code is merged.
    static std::vector<std::string> madeWithCode(const std::vector<std::string> &keys) {
        std::vector<std::string> made;
        for (const std::string &key : keys)
            if (startsWith(key, ".text.") || startsWith(key, ".nv.shared.") ||
                startsWith(key, ".nv.capmerc.text."))
                made.push_back(key);
        return made;
    }

    void compareOrder(DiffKind kind, const std::string &subject,
                      const std::vector<std::string> &orderA,
                      const std::vector<std::string> &orderB) {
        auto [ia, ib] = std::mismatch(orderA.begin(), orderA.end(), orderB.begin(), orderB.end());
        if (ia != orderA.end() && ib != orderB.end())
            add(kind, subject,
                "differs at position " + std::to_string(ia - orderA.begin()) + ": " + quote(*ia) +
                    " vs " + quote(*ib));
    }

    void compareSection(const ElfSection &sa, const ElfSection &sb, const std::string &subject) {
        const DiffKind k = DiffKind::Section;
        field(k, subject, "type", sectionTypeName(sa.type), sectionTypeName(sb.type));
        field(k, subject, "flags", sa.flags, sb.flags);
        if (sizeIsCompared(sa))
            field(k, subject, "size", sa.size, sb.size);
        field(k, subject, "addralign", sa.addralign, sb.addralign);
        field(k, subject, "entsize", sa.entsize, sb.entsize);
        field(k, subject, "link", linkRef(a_, sa), linkRef(b_, sb));
        field(k, subject, "info", infoRef(a_, sa), infoRef(b_, sb));
        ContentRule rule = contentRule(sa);
        if (rule != contentRule(sb))
            return; // already reported as a type difference
        try {
            compareContent(rule, sa, sb, subject);
        } catch (const FatalError &e) {
            reportUndecodable(sa, sb, subject, e.what());
        }
    }

    // A decoder gave up on one side. When both sides are equally broken,
    // their bytes still tell whether they differ.
    void reportUndecodable(const ElfSection &sa, const ElfSection &sb, const std::string &subject,
                           const std::string &why) {
        if (sa.data.size == sb.data.size &&
            std::equal(sa.data.begin(), sa.data.end(), sb.data.begin()))
            return;
        add(DiffKind::Section, subject, "cannot be decoded (" + why + ")");
    }

    void compareContent(ContentRule rule, const ElfSection &sa, const ElfSection &sb,
                        const std::string &subject) {
        switch (rule) {
        case ContentRule::None:
            return;
        case ContentRule::Bytes:
            return compareBytes(sa, sb, subject);
        case ContentRule::Symbols:
            return compareSymbols(sa, sb);
        case ContentRule::Relocations:
            return compareRelocations(sa, sb);
        case ContentRule::InfoOrdered:
        case ContentRule::InfoMultiset:
            return compareRecords(
                decodeAttributes(a_, sa, a_.symbolsFor(sa), false),
                decodeAttributes(b_, sb, b_.symbolsFor(sb), false), subject,
                rule == ContentRule::InfoOrdered);
        case ContentRule::Compat:
            return compareRecords(decodeAttributes(a_, sa, nullptr, true),
                                  decodeAttributes(b_, sb, nullptr, true), subject, true);
        case ContentRule::Callgraph:
            // A multiset: nvlink writes one indirect-call record per call
            // site, so a repeated record is information, not noise.
            return compareRecords(decodeCallgraph(a_, sa), decodeCallgraph(b_, sb), subject,
                                  false);
        case ContentRule::Prototype:
            return compareRecords(decodePrototypes(a_, sa), decodePrototypes(b_, sb), subject,
                                  false);
        case ContentRule::ToolkitInfo:
            return compareRecords(decodeToolkitInfo(a_, sa), decodeToolkitInfo(b_, sb), subject, true);
        case ContentRule::Capsule:
            return compareCapsules(sa, sb, subject);
        case ContentRule::StringTableCopy:
            return compareStringTableCopies(sa, sb, subject);
        }
    }

    // sm_110's Mercury copy of reserved shared memory holds at 0x40 a copy
    // of a .shstrtab section header (name 1, SHT_STRTAB, offset 0x40); its
    // sh_size, at 0x60, is an offset into the file's own .shstrtab (nvlink
    // writes the offset of the first .nv.constant0.<k> name). Like sh_name
    // it is compared by the string it points at, since .shstrtab's layout
    // is not compared; every other byte is.
    void compareStringTableCopies(const ElfSection &sa, const ElfSection &sb,
                                  const std::string &subject) {
        constexpr uint64_t kCopy = 0x40, kSize = kCopy + 0x20, kEnd = kCopy + 0x40;
        auto isCopy = [](const ElfSection &s) {
            uint32_t name = 0, type = 0;
            if (s.data.size < kEnd)
                return false;
            std::memcpy(&name, s.data.data + kCopy, 4);
            std::memcpy(&type, s.data.data + kCopy + 4, 4);
            return name == 1 && type == elf::SHT_STRTAB;
        };
        if (!isCopy(sa) || !isCopy(sb) || sa.data.size != sb.data.size)
            return compareBytes(sa, sb, subject);
        auto named = [](const FileIndex &f, const ElfSection &s) {
            uint64_t offset = 0;
            std::memcpy(&offset, s.data.data + kSize, 8);
            const ElfSection *shstrtab = f.file.header().shstrndx < f.file.sections().size()
                                             ? &f.file.section(f.file.header().shstrndx)
                                             : nullptr;
            return offset > UINT32_MAX ? "<bad string offset " + hex(offset) + ">"
                                       : quote(f.stringAt(shstrtab, static_cast<uint32_t>(offset)));
        };
        std::string na = named(a_, sa), nb = named(b_, sb);
        if (na != nb)
            add(DiffKind::Section, subject,
                "string-table size copied at 0x60 points at " + na + " vs " + nb);
        std::vector<uint8_t> ba(sa.data.begin(), sa.data.end()), bb(sb.data.begin(), sb.data.end());
        std::fill(ba.begin() + kSize, ba.begin() + kSize + 8, 0);
        std::fill(bb.begin() + kSize, bb.begin() + kSize + 8, 0);
        ElfSection ta = sa, tb = sb;
        ta.data = ByteView{ba.data(), ba.size()};
        tb.data = ByteView{bb.data(), bb.size()};
        compareBytes(ta, tb, subject);
    }

    // A capsule's first word is the section index of its function's .text
    // (nvlink writes the output's): like sh_link and sh_info it is compared
    // by the section it names, since the two linkers may number sections
    // differently (their .text order); the rest byte for byte.
    void compareCapsules(const ElfSection &sa, const ElfSection &sb, const std::string &subject) {
        if (sa.data.size < 4 || sb.data.size < 4)
            return compareBytes(sa, sb, subject);
        uint32_t ia, ib;
        std::memcpy(&ia, sa.data.data, 4);
        std::memcpy(&ib, sb.data.data, 4);
        std::string na = a_.sectionRef(ia), nb = b_.sectionRef(ib);
        if (na != nb)
            add(DiffKind::Section, subject, "capsule names section " + na + " vs " + nb);
        ElfSection ta = sa, tb = sb;
        ta.data = ByteView{sa.data.data + 4, sa.data.size - 4};
        tb.data = ByteView{sb.data.data + 4, sb.data.size - 4};
        compareBytes(ta, tb, subject);
    }

    void compareBytes(const ElfSection &sa, const ElfSection &sb, const std::string &subject) {
        if (sa.data.size != sb.data.size)
            return; // the size difference says enough
        auto [pa, pb] = std::mismatch(sa.data.begin(), sa.data.end(), sb.data.begin());
        if (pa == sa.data.end())
            return;
        uint64_t count = 0;
        for (uint64_t i = 0; i < sa.data.size; ++i)
            count += sa.data.data[i] != sb.data.data[i];
        add(DiffKind::Section, subject,
            "content differs at offset " + hex(static_cast<uint64_t>(pa - sa.data.begin())) +
                " (" + hex(*pa) + " vs " + hex(*pb) + "), " + std::to_string(count) +
                " byte(s) differ");
    }

    // -- symbols

    void compareSymbols(const ElfSection &sa, const ElfSection &sb) {
        const SymbolTable *ta = a_.tableAt(sa.index), *tb = b_.tableAt(sb.index);
        if (!ta || !tb)
            return;
        std::string suffix = sa.name == ".symtab" ? "" : " in " + quote(sa.name);
        std::unordered_map<std::string_view, size_t> inB;
        for (size_t i = 1; i < tb->keys.size(); ++i)
            inB.emplace(tb->keys[i], i);
        std::vector<std::string> orderA, orderB;
        for (size_t i = 1; i < ta->keys.size(); ++i) {
            const std::string subject = "symbol " + quote(ta->keys[i]) + suffix;
            auto it = inB.find(ta->keys[i]);
            if (it == inB.end()) {
                add(DiffKind::Symbol, subject, "only in A");
                continue;
            }
            orderA.push_back(ta->keys[i]);
            compareSymbol(ta->symbols[i], tb->symbols[it->second], subject);
        }
        std::unordered_map<std::string_view, size_t> inA;
        for (size_t i = 1; i < ta->keys.size(); ++i)
            inA.emplace(ta->keys[i], i);
        for (size_t i = 1; i < tb->keys.size(); ++i) {
            if (inA.count(tb->keys[i]))
                orderB.push_back(tb->keys[i]);
            else
                add(DiffKind::Symbol, "symbol " + quote(tb->keys[i]) + suffix, "only in B");
        }
        if (options_.strictOrder)
            compareOrder(DiffKind::Symbol, "symbol order" + suffix, orderA, orderB);
    }

    void compareSymbol(const ElfSymbol &x, const ElfSymbol &y, const std::string &subject) {
        const DiffKind k = DiffKind::Symbol;
        // Other symbols are matched by their name; a section symbol, matched
        // by its section, still has one (nvlink names it after the section).
        field(k, subject, "name", quote(x.name), quote(y.name));
        field(k, subject, "value", x.value, y.value);
        field(k, subject, "size", x.size, y.size);
        field(k, subject, "type", symbolTypeName(x.type()), symbolTypeName(y.type()));
        field(k, subject, "binding", symbolBindName(x.bind()), symbolBindName(y.bind()));
        field(k, subject, "st_other", hex(x.other) + " (" + symbolOtherText(x.other) + ")",
              hex(y.other) + " (" + symbolOtherText(y.other) + ")");
        field(k, subject, "section", quote(a_.symbolSection(x)), quote(b_.symbolSection(y)));
    }

    // -- relocations

    std::string describe(const RelocEntry &r) const {
        return "offset " + hex(r.offset) + ", " + relocationTypeName(r.type) + ", symbol " +
               quote(r.symbol) + ", addend " + signedHex(r.addend);
    }

    void compareRelocations(const ElfSection &sa, const ElfSection &sb) {
        std::vector<RelocEntry> onlyA, onlyB;
        multisetDifference(decodeRelocations(a_, sa), decodeRelocations(b_, sb), onlyA, onlyB);
        const std::string subject = "relocation section " + quote(a_.sectionRef(sa.index));
        // Both lists are sorted by offset: show entries at the same offset
        // side by side, the rest as missing.
        size_t i = 0, j = 0;
        while (i < onlyA.size() || j < onlyB.size()) {
            if (i < onlyA.size() && j < onlyB.size() && onlyA[i].offset == onlyB[j].offset)
                add(DiffKind::Relocation, subject,
                    "entry (" + describe(onlyA[i++]) + ") vs (" + describe(onlyB[j++]) + ")");
            else if (j == onlyB.size() || (i < onlyA.size() && onlyA[i].offset < onlyB[j].offset))
                add(DiffKind::Relocation, subject, "entry (" + describe(onlyA[i++]) + ") only in A");
            else
                add(DiffKind::Relocation, subject, "entry (" + describe(onlyB[j++]) + ") only in B");
        }
    }

    // -- records

    // Sorted inputs; what is in one and not the other, counting repeats.
    template <class T>
    static void multisetDifference(const std::vector<T> &a, const std::vector<T> &b,
                                   std::vector<T> &onlyA, std::vector<T> &onlyB) {
        std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(onlyA));
        std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(onlyB));
    }

    // Reports records in one list and not the other, pairing those with the
    // same pairKey ("REGCOUNT for 'f': ... vs ...").
    void reportRecordDifferences(std::vector<Record> a, std::vector<Record> b,
                                 const std::string &subject) {
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        std::vector<Record> onlyA, onlyB;
        multisetDifference(a, b, onlyA, onlyB);
        size_t i = 0, j = 0;
        while (i < onlyA.size() || j < onlyB.size()) {
            if (i < onlyA.size() && j < onlyB.size() && onlyA[i].pairKey == onlyB[j].pairKey)
                add(DiffKind::Record, subject,
                    "record " + onlyA[i++].text + " vs " + onlyB[j++].text);
            else if (j == onlyB.size() || (i < onlyA.size() && onlyA[i].pairKey < onlyB[j].pairKey))
                add(DiffKind::Record, subject, "record " + onlyA[i++].text + " only in A");
            else
                add(DiffKind::Record, subject, "record " + onlyB[j++].text + " only in B");
        }
    }

    void compareRecords(const std::vector<Record> &a, const std::vector<Record> &b,
                        const std::string &subject, bool ordered) {
        size_t before = out_.size();
        reportRecordDifferences(a, b, subject);
        if (!ordered || out_.size() != before)
            return;
        // Same multiset: only the order can differ.
        auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
        if (ia != a.end())
            add(DiffKind::Record, subject,
                "record order differs at #" + std::to_string(ia - a.begin()) + ": " + ia->text +
                    " vs " + ib->text);
    }

    // -- program headers

    void compareProgramHeaders() {
        const auto &pa = a_.file.programHeaders(), &pb = b_.file.programHeaders();
        for (size_t i = 0; i < std::min(pa.size(), pb.size()); ++i)
            compareSegment(pa[i], pb[i], "program header #" + std::to_string(i));
    }

    void compareSegment(const ElfProgramHeader &x, const ElfProgramHeader &y,
                        const std::string &subject) {
        const DiffKind k = DiffKind::ProgramHeader;
        field(k, subject, "p_type", x.type, y.type);
        field(k, subject, "p_flags", x.flags, y.flags);
        field(k, subject, "p_align", x.align, y.align);
        SegmentView va = viewSegment(a_, x), vb = viewSegment(b_, y);
        field(k, subject, "covers", "[" + joinKeys(va.sections, va.coversHeaderTable) + "]",
              "[" + joinKeys(vb.sections, vb.coversHeaderTable) + "]");
        if (options_.strictOrder) {
            field(k, subject, "p_filesz", x.filesz, y.filesz);
            field(k, subject, "p_memsz", x.memsz, y.memsz);
        } else {
            field(k, subject, "p_filesz (without padding)", va.filesz, vb.filesz);
            field(k, subject, "p_memsz (without padding)", va.memsz, vb.memsz);
        }
    }
};

} // namespace

CubinDiffResult diffCubins(const ElfFile &a, const ElfFile &b, const CubinDiffOptions &options) {
    CubinDiffResult result;
    if (sameBytes(a.bytes(), b.bytes()))
        return result;
    FileIndex ia(a), ib(b);
    Comparer(ia, ib, options, result.differences).run();
    result.verdict = result.differences.empty() ? CubinDiffVerdict::Equivalent
                                                : CubinDiffVerdict::Different;
    return result;
}

CubinDiffResult diffCubinFiles(const std::string &pathA, const std::string &pathB,
                               const CubinDiffOptions &options) {
    auto fileA = MappedFile::open(pathA);
    auto fileB = MappedFile::open(pathB);
    ElfFile a = ElfFile::parse(pathA, fileA->bytes());
    ElfFile b = ElfFile::parse(pathB, fileB->bytes());
    return diffCubins(a, b, options);
}

void printDiffReport(std::ostream &out, const CubinDiffResult &result, size_t maxDiffs) {
    out << verdictName(result.verdict) << '\n';
    const auto &diffs = result.differences;
    size_t shown = std::min(maxDiffs, diffs.size());
    for (size_t i = 0; i < shown; ++i)
        out << "  " << diffs[i].str() << '\n';
    if (shown < diffs.size())
        out << "  ... and " << diffs.size() - shown << " more difference(s) (-v lists all)\n";
}

} // namespace culd
