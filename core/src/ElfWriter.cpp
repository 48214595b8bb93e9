// Layout and serialization of output cubins, for the linker's writer and
// the round-trip proof alike. See ElfWriter.h for the rules.

#include "culd/ElfWriter.h"
#include "culd/Align.h"
#include "culd/Hex.h"
#include "culd/OutputFile.h"
#include "culd/StringTable.h"

#include "culd/Diagnostics.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <unistd.h>

namespace culd {

using namespace elf;

namespace {

template <class T> void store(uint8_t *out, const T &value) {
    std::memcpy(out, &value, sizeof value);
}

bool allZero(const uint8_t *begin, const uint8_t *end) {
    return std::all_of(begin, end, [](uint8_t b) { return b == 0; });
}

} // namespace

// --- ImageSection ---------------------------------------------------------

ByteView ImageSection::bytes() const {
    if (auto view = std::get_if<ByteView>(&content))
        return *view;
    if (auto owned = std::get_if<std::vector<uint8_t>>(&content))
        return ByteView{owned->data(), owned->size()};
    return {};
}

bool ImageSection::occupiesFileSpace() const {
    return std::holds_alternative<ByteView>(content) ||
           std::holds_alternative<std::vector<uint8_t>>(content) ||
           std::holds_alternative<FilledLater>(content);
}

uint64_t ImageSection::contentFileSize() const {
    if (auto later = std::get_if<FilledLater>(&content))
        return later->size;
    return bytes().size;
}

// --- ElfImage: model -------------------------------------------------------

namespace {

// Section 0: all fields zero (sh_addralign included, unlike ImageSection's
// default of 1).
ImageSection nullSection() {
    ImageSection s;
    s.addralign = 0;
    s.content = NoFileData{0};
    s.nameOffset = 0;
    return s;
}

} // namespace

ElfImage::ElfImage() { sections.push_back(nullSection()); }

uint64_t ElfImage::ehdrSize() const { return is64() ? sizeof(Ehdr64) : sizeof(Ehdr32); }
uint64_t ElfImage::shdrSize() const { return is64() ? sizeof(Shdr64) : sizeof(Shdr32); }
uint64_t ElfImage::phdrSize() const { return is64() ? sizeof(Phdr64) : sizeof(Phdr32); }

uint32_t ElfImage::addSection(ImageSection section) {
    sections.push_back(std::move(section));
    laidOut_ = false;
    return static_cast<uint32_t>(sections.size() - 1);
}

uint64_t ElfImage::sectionSize(uint32_t index) const {
    const ImageSection &s = sections.at(index);
    if (auto alias = std::get_if<AliasOf>(&s.content))
        return sectionSize(alias->section); // checkConsistency forbids chains
    if (auto nobits = std::get_if<NoFileData>(&s.content))
        return nobits->size;
    return s.contentFileSize();
}

// --- ElfImage: layout ------------------------------------------------------

void ElfImage::layout() {
    checkConsistency();
    buildSectionNames();
    if (!preserveOffsets)
        assignSectionOffsets();
    resolveProgramHeaders();

    uint64_t end = std::max(ehdrSize(), shoff + sections.size() * shdrSize());
    if (!programHeaders.empty())
        end = std::max(end, phoff + programHeaders.size() * phdrSize());
    for (const ImageSection &s : sections)
        if (s.occupiesFileSpace())
            end = std::max(end, s.offset + std::max(s.contentFileSize(), s.reservedSize));
    if (!is64() && end > UINT32_MAX)
        throw FatalError("output too large for ELF32 (" + hex(end) + " bytes)");
    fileSize_ = end;
    laidOut_ = true;
}

void ElfImage::checkConsistency() const {
    auto fail = [](const std::string &what) { throw FatalError("invalid output image: " + what); };
    if (sections.empty() || sections[0].type != SHT_NULL || !sections[0].bytes().empty())
        fail("section 0 must be the null section");
    if (header.elfClass != ELFCLASS32 && header.elfClass != ELFCLASS64)
        fail("bad ELF class " + std::to_string(header.elfClass));
    if (header.shstrndx >= sections.size())
        fail("shstrndx " + std::to_string(header.shstrndx) + " out of range");
    for (uint32_t i = 0; i < sections.size(); ++i) {
        // Powers of two up to 4 GiB keep alignTo() exact and overflow-free.
        const uint64_t align = sections[i].addralign;
        if ((align & (align - 1)) != 0 || align > (uint64_t(1) << 32))
            fail("section " + std::to_string(i) + " '" + sections[i].name + "' has alignment " +
                 hex(align) + " (not a power of two up to 4 GiB)");
        const auto *alias = std::get_if<AliasOf>(&sections[i].content);
        if (!alias)
            continue;
        if (alias->section >= sections.size() || alias->section == i ||
            !sections[alias->section].occupiesFileSpace())
            fail("section " + std::to_string(i) + " '" + sections[i].name +
                 "' aliases section " + std::to_string(alias->section) +
                 ", which has no file data of its own");
    }
    for (const OutputProgramHeader &ph : programHeaders) {
        if (ph.source != SegmentSource::Sections)
            continue;
        if (ph.sections.empty())
            fail("program header covers no section");
        for (uint32_t i : ph.sections)
            if (i == 0 || i >= sections.size())
                fail("program header covers section " + std::to_string(i) + ", out of range");
    }
}

// Builds .shstrtab from the section names unless every section already has
// an sh_name (a prebuilt table is kept as it is).
void ElfImage::buildSectionNames() {
    bool allNamed = std::all_of(sections.begin(), sections.end(),
                                [](const ImageSection &s) { return s.nameOffset.has_value(); });
    if (allNamed)
        return;
    ImageSection &table = sections[header.shstrndx];
    if (table.type != SHT_STRTAB)
        throw FatalError("invalid output image: section " + std::to_string(header.shstrndx) +
                         " named by shstrndx is not a string table");
    StringTable builder;
    for (ImageSection &s : sections)
        s.nameOffset = builder.add(s.name);
    table.content = builder.bytes();
}

void ElfImage::assignSectionOffsets() {
    uint64_t cursor = ehdrSize();
    for (ImageSection &s : sections) {
        if (&s == &sections[0] || s.isAlias())
            continue;
        s.offset = alignTo(cursor, s.addralign);
        // A section without file data still moves the cursor to its aligned
        // offset (ptxas puts what follows there).
        cursor = s.occupiesFileSpace() ? s.offset + std::max(s.contentFileSize(), s.reservedSize)
                                       : s.offset;
    }
    for (ImageSection &s : sections)
        if (auto alias = std::get_if<AliasOf>(&s.content))
            s.offset = sections[alias->section].offset;
    sections[0].offset = 0;
    shoff = alignTo(cursor, is64() ? 8 : 4);
    phoff = programHeaders.empty() ? 0 : shoff + sections.size() * shdrSize();
}

void ElfImage::resolveProgramHeaders() {
    for (OutputProgramHeader &ph : programHeaders) {
        switch (ph.source) {
        case SegmentSource::Explicit:
            break;
        case SegmentSource::ProgramHeaderTable:
            ph.offset = phoff;
            ph.filesz = ph.memsz = programHeaders.size() * phdrSize();
            break;
        case SegmentSource::Sections:
            computeSegment(ph);
            break;
        }
    }
}

// nvlink gives the NOBITS sections of a segment consecutive memory after the
// file-backed part, although they all share one file offset: memsz is filesz
// plus their sizes, each placed at its alignment (nvlink 13.0 counts that
// padding). A segment that starts with a NOBITS section has no file bytes.
void ElfImage::computeSegment(OutputProgramHeader &ph) const {
    auto hasFileData = [&](uint32_t i) {
        return !std::holds_alternative<NoFileData>(sections[i].content);
    };
    const uint64_t start = sections[ph.sections.front()].offset;
    uint64_t fileEnd = start;
    for (uint32_t i : ph.sections)
        fileEnd = std::max(fileEnd, hasFileData(i) ? sections[i].offset + sectionSize(i)
                                                   : sections[i].offset);
    uint64_t memEnd = fileEnd - start;
    for (uint32_t i : ph.sections)
        if (!hasFileData(i))
            memEnd = alignTo(memEnd, sections[i].addralign) + sectionSize(i);
    ph.offset = start;
    ph.filesz = hasFileData(ph.sections.front()) ? fileEnd - start : 0;
    ph.memsz = memEnd;
}

// --- ElfImage: serialization -----------------------------------------------

std::vector<uint8_t> ElfImage::serialize() const {
    if (!laidOut_)
        throw FatalError("internal error: ElfImage::serialize() called before layout()");
    std::vector<uint8_t> out(fileSize_, 0);
    writeHeader(out.data());
    for (const ImageSection &s : sections) {
        ByteView bytes = s.bytes();
        if (!bytes.empty())
            std::memcpy(out.data() + s.offset, bytes.data, bytes.size);
    }
    writeSectionHeaders(out.data() + shoff);
    if (!programHeaders.empty())
        writeProgramHeaders(out.data() + phoff);
    return out;
}

void ElfImage::writeHeader(uint8_t *out) const {
    const uint32_t shnum = static_cast<uint32_t>(sections.size());
    // Counts and indices that do not fit 16 bits go through section 0.
    const uint16_t rawShnum = shnum >= SHN_LORESERVE ? 0 : static_cast<uint16_t>(shnum);
    const uint16_t rawShstrndx =
        header.shstrndx >= SHN_LORESERVE ? SHN_XINDEX : static_cast<uint16_t>(header.shstrndx);
    auto fill = [&](auto &e) {
        e.ident[0] = 0x7F, e.ident[1] = 'E', e.ident[2] = 'L', e.ident[3] = 'F';
        e.ident[4] = header.elfClass, e.ident[5] = ELFDATA2LSB, e.ident[6] = header.identVersion;
        e.ident[7] = header.osabi, e.ident[8] = header.abiVersion;
        std::copy(header.identPadding.begin(), header.identPadding.end(), e.ident + 9);
        e.type = header.type, e.machine = header.machine, e.version = header.version;
        e.flags = header.flags;
        e.ehsize = static_cast<uint16_t>(ehdrSize());
        e.phentsize = programHeaders.empty() ? header.phentsizeWithoutProgramHeaders
                                             : static_cast<uint16_t>(phdrSize());
        e.phnum = static_cast<uint16_t>(programHeaders.size());
        e.shentsize = static_cast<uint16_t>(shdrSize());
        e.shnum = rawShnum, e.shstrndx = rawShstrndx;
    };
    if (is64()) {
        Ehdr64 e{};
        fill(e);
        e.entry = header.entry, e.phoff = phoff, e.shoff = shoff;
        store(out, e);
    } else {
        Ehdr32 e{};
        fill(e);
        e.entry = static_cast<uint32_t>(header.entry);
        e.phoff = static_cast<uint32_t>(phoff), e.shoff = static_cast<uint32_t>(shoff);
        store(out, e);
    }
}

void ElfImage::writeSectionHeaders(uint8_t *out) const {
    for (uint32_t i = 0; i < sections.size(); ++i) {
        const ImageSection &s = sections[i];
        uint64_t size = sectionSize(i);
        uint32_t link = s.link;
        if (i == 0) { // extended section count / string table index
            size = sections.size() >= SHN_LORESERVE ? sections.size() : 0;
            link = header.shstrndx >= SHN_LORESERVE ? header.shstrndx : 0;
        }
        const uint32_t name = s.nameOffset.value_or(0);
        if (is64()) {
            Shdr64 h{name, s.type, s.flags, s.addr, s.offset, size, link, s.info, s.addralign,
                     s.entsize};
            store(out + i * sizeof h, h);
        } else {
            Shdr32 h{name,
                     s.type,
                     static_cast<uint32_t>(s.flags),
                     static_cast<uint32_t>(s.addr),
                     static_cast<uint32_t>(s.offset),
                     static_cast<uint32_t>(size),
                     link,
                     s.info,
                     static_cast<uint32_t>(s.addralign),
                     static_cast<uint32_t>(s.entsize)};
            store(out + i * sizeof h, h);
        }
    }
}

void ElfImage::writeProgramHeaders(uint8_t *out) const {
    for (size_t i = 0; i < programHeaders.size(); ++i) {
        const OutputProgramHeader &p = programHeaders[i];
        if (is64()) {
            Phdr64 h{p.type, p.flags, p.offset, p.vaddr, p.paddr, p.filesz, p.memsz, p.align};
            store(out + i * sizeof h, h);
        } else {
            Phdr32 h{p.type,
                     static_cast<uint32_t>(p.offset),
                     static_cast<uint32_t>(p.vaddr),
                     static_cast<uint32_t>(p.paddr),
                     static_cast<uint32_t>(p.filesz),
                     static_cast<uint32_t>(p.memsz),
                     p.flags,
                     static_cast<uint32_t>(p.align)};
            store(out + i * sizeof h, h);
        }
    }
}

// --- ElfImage: atomic write (OutputFile.cpp) -------------------------------

void ElfImage::writeFileAtomically(const std::string &path) {
    layout();
    culd::writeFileAtomically(path, serialize());
}

// --- ElfImage::fromFile ----------------------------------------------------

namespace {

ImageSection toOutputSection(const ElfSection &in) {
    ImageSection out;
    out.name = std::string(in.name);
    out.type = in.type, out.flags = in.flags, out.addr = in.addr;
    out.link = in.link, out.info = in.info;
    out.addralign = in.addralign, out.entsize = in.entsize;
    out.nameOffset = in.nameOffset;
    out.offset = in.offset;
    if (in.hasFileData())
        out.content = in.data;
    else
        out.content = NoFileData{in.size};
    return out;
}

// Replays the layout rules over the recorded offsets of `image` (a copy of a
// file) and explains each deviation as slack after the previous section.
// Returns a description of the first deviation that slack cannot explain.
class SlackFinder {
public:
    SlackFinder(ElfImage &image, const ElfFile &file) : image_(image), file_(file) {}

    std::string run(uint64_t ehdrSize, uint64_t shAlign) {
        uint64_t cursor = ehdrSize;
        ImageSection *last = nullptr; // last section that advanced the cursor
        for (uint32_t i = 1; i < image_.sections.size(); ++i) {
            ImageSection &s = image_.sections[i];
            if (s.isAlias())
                continue;
            const uint64_t expected = alignTo(cursor, s.addralign);
            if (s.offset != expected) {
                if (!s.occupiesFileSpace() || !explainAsSlack(last, cursor, s.offset, s.addralign))
                    return describe(i, s) + " is at " + hex(s.offset) + ", rules give " +
                           hex(expected);
                cursor = s.offset; // == alignTo(last->offset + last->reservedSize)
            }
            if (s.occupiesFileSpace() && s.bytes().size != 0) {
                cursor = s.offset + s.bytes().size;
                last = &s;
            } else if (!s.occupiesFileSpace()) {
                cursor = s.offset;
            }
        }
        const uint64_t shoff = file_.header().shoff;
        if (shoff != alignTo(cursor, shAlign) && !explainAsSlack(last, cursor, shoff, shAlign))
            return "section header table is at " + hex(shoff) + ", rules give " +
                   hex(alignTo(cursor, shAlign));
        return {};
    }

private:
    static std::string describe(uint32_t i, const ImageSection &s) {
        return "section [" + std::to_string(i) + "] '" + s.name + "'";
    }

    // Zero bytes between the end of `last` and `target` can be modelled as
    // reserved space of `last` if the rules then land exactly on `target`.
    bool explainAsSlack(ImageSection *last, uint64_t cursor, uint64_t target, uint64_t align) {
        if (!last || target < cursor || alignTo(target, align) != target)
            return false;
        const uint8_t *bytes = file_.bytes().data;
        if (!allZero(bytes + cursor, bytes + target))
            return false;
        last->reservedSize = target - last->offset;
        return true;
    }

    ElfImage &image_;
    const ElfFile &file_;
};

} // namespace

ElfImage ElfImage::fromFile(const ElfFile &file) {
    ElfImage image;
    const ElfHeader &h = file.header();
    image.header.elfClass = h.elfClass;
    image.header.osabi = h.osabi;
    image.header.abiVersion = h.abiVersion;
    image.header.identVersion = h.ident[6];
    std::copy(h.ident + 9, h.ident + 16, image.header.identPadding.begin());
    image.header.type = h.type;
    image.header.machine = h.machine;
    image.header.version = h.version;
    image.header.entry = h.entry;
    image.header.flags = h.flags;
    image.header.shstrndx = h.shstrndx;
    if (h.phnum == 0)
        image.header.phentsizeWithoutProgramHeaders = h.phentsize;

    // Sections; a section with exactly the bytes of an earlier one is an alias.
    if (!file.sections().empty()) {
        // Keep section 0's fields except those layout() derives (the extended
        // section count and string table index).
        ImageSection &null = image.sections[0];
        const ElfSection &in = file.section(0);
        null.name = std::string(in.name), null.nameOffset = in.nameOffset;
        null.type = in.type, null.flags = in.flags, null.addr = in.addr, null.info = in.info;
        null.addralign = in.addralign, null.entsize = in.entsize;
    }
    // A Mercury section at exactly the offset and size of an earlier section
    // (even an empty one) is its alias. (The parser allows exact duplicates
    // with data only for Mercury sections.)
    std::map<std::pair<uint64_t, uint64_t>, uint32_t> firstWithRange;
    for (const ElfSection &s : file.sections()) {
        if (s.index == 0)
            continue;
        ImageSection out = toOutputSection(s);
        if (s.hasFileData()) {
            auto [it, inserted] = firstWithRange.try_emplace({s.offset, s.size}, s.index);
            if (!inserted && (s.flags & SHF_CUDA_MERCURY))
                out.content = AliasOf{it->second};
        }
        image.sections.push_back(std::move(out));
    }

    // Offsets: the rules where they reproduce the file.
    std::string irregular = SlackFinder(image, file).run(image.ehdrSize(), image.is64() ? 8 : 4);
    image.shoff = h.shoff;
    image.phoff = h.phoff;
    const uint64_t tablesEnd = h.shoff + image.sections.size() * image.shdrSize();
    if (irregular.empty() && h.phnum != 0 && h.phoff != tablesEnd)
        irregular = "program header table is at " + hex(h.phoff) + ", rules give " + hex(tablesEnd);
    if (irregular.empty() && h.phnum == 0 && h.phoff != 0)
        irregular = "e_phoff is " + hex(h.phoff) + " without program headers";
    if (irregular.empty() && h.ehsize != image.ehdrSize())
        irregular = "e_ehsize is " + std::to_string(h.ehsize);
    if (irregular.empty() && file.sections().empty())
        irregular = "no section header table";
    const uint64_t end = std::max(tablesEnd, h.phoff + h.phnum * image.phdrSize());
    if (irregular.empty() && file.bytes().size != end)
        irregular = "file size " + hex(file.bytes().size) + ", rules give " + hex(end);
    if (!irregular.empty()) {
        image.preserveOffsets = true;
        image.irregularity_ = irregular;
    }

    // Program headers: described by what they cover, when that reproduces
    // the recorded values.
    for (const ElfProgramHeader &p : file.programHeaders()) {
        OutputProgramHeader out;
        out.type = p.type, out.flags = p.flags, out.vaddr = p.vaddr, out.paddr = p.paddr;
        out.align = p.align, out.offset = p.offset, out.filesz = p.filesz, out.memsz = p.memsz;
        const uint64_t tableSize = h.phnum * image.phdrSize();
        if (p.offset == h.phoff && p.filesz == tableSize && p.memsz == tableSize) {
            out.source = SegmentSource::ProgramHeaderTable;
        } else {
            for (uint32_t first = 1; first < image.sections.size() && out.source == SegmentSource::Explicit; ++first) {
                if (image.sections[first].offset != p.offset)
                    continue;
                OutputProgramHeader candidate = out;
                for (uint32_t last = first; last < image.sections.size(); ++last) {
                    candidate.sections.push_back(last); // sections [first, last]
                    image.computeSegment(candidate);
                    if (candidate.filesz > p.filesz && candidate.memsz > p.memsz)
                        break;
                    if (candidate.filesz == p.filesz && candidate.memsz == p.memsz) {
                        out = candidate;
                        out.source = SegmentSource::Sections;
                        break;
                    }
                }
            }
        }
        image.programHeaders.push_back(out);
    }
    return image;
}

} // namespace culd
