// The one ELF layout and serialisation engine: the linker's writer
// (Writer.cpp) and the round-trip proof (tests/unit/test_elf_roundtrip.cpp)
// both go through it, so the proof covers the code a link runs.
//
// A file is described as an ElfImage: header fields, an ordered list of
// sections whose bytes are either borrowed (a view into an input file or a
// table the linker built), owned, written later by the caller into the
// serialised image (the linker's input pieces, patched by relocations),
// absent (NOBITS-like) or shared with another section (Mercury aliases), and
// program headers that are either given literally or computed from the
// sections they cover. layout() then assigns every file offset by the rules
// nvlink and ptxas follow, and serialize() / writeFileAtomically() produce
// the bytes, copying each section's bytes exactly once.
//
// Layout rules (checked byte-for-byte against nvcc and nvlink 13.0 output by
// tests/unit/test_elf_roundtrip.cpp, and by every corpus test through the
// linker):
//  * the first section after the null section starts right after the ELF
//    header (0x40; 0x34 for ELF32), rounded up to its sh_addralign;
//  * every section with file data is placed at the running offset rounded up
//    to its sh_addralign (0 counts as 1), and advances the running offset by
//    max(sh_size, reservedSize);
//  * sections without file data (SHT_NOBITS and the CUDA memory-space types)
//    get the running offset rounded up to their alignment as sh_offset but
//    do not advance it past that;
//  * Mercury alias sections take the offset of the section they alias;
//  * the section header table follows the data, aligned to 8 (ELF64; the
//    ELF32 value 4 is unverified: CUDA 13 emits no ELF32 cubins), and the
//    program header table follows the section header table directly; e_phoff
//    is 0 when there are no program headers;
//  * past SHN_LORESERVE sections, e_shnum is 0 and the count is in section
//    0's sh_size; a string table index past it is SHN_XINDEX in e_shstrndx
//    and the real index in section 0's sh_link;
//  * a program header over a list of sections starts at the first one's
//    offset; filesz runs to the end of the file-backed data (or to the offset
//    of a later NOBITS section), and is 0 when the first section has no file
//    data; memsz is filesz plus the NOBITS sizes laid end to end at their
//    alignments (they share one file offset but not memory).
// nvlink and ptxas trim .shstrtab/.strtab after they lay the file out, which
// leaves zero-filled slack after those tables; ImageSection::reservedSize
// models that slack.
#pragma once

#include "culd/Elf.h"
#include "culd/ElfFile.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace culd {

// Section content kinds.
struct NoFileData {      // SHT_NOBITS or a CUDA memory-only type: only sh_size
    uint64_t size = 0;
};
struct AliasOf {         // the exact bytes of another section (by index)
    uint32_t section = 0;
};
struct FilledLater {     // `size` bytes the caller writes into serialize()'s result
    uint64_t size = 0;
};
using SectionContent =
    std::variant<ByteView, std::vector<uint8_t>, NoFileData, AliasOf, FilledLater>;

struct ImageSection {
    std::string name;
    uint32_t type = elf::SHT_NULL;
    uint64_t flags = 0;
    uint64_t addr = 0;
    uint32_t link = 0;
    uint32_t info = 0;
    uint64_t addralign = 1;
    uint64_t entsize = 0;
    SectionContent content = ByteView{};

    // File space to reserve even if the content is smaller (zero-filled);
    // 0 means "just the content". Used to reproduce trimmed string tables.
    uint64_t reservedSize = 0;

    // sh_name. Leave unset to have layout() build .shstrtab from the names;
    // set on every section to keep a prebuilt .shstrtab as it is.
    std::optional<uint32_t> nameOffset;

    // Assigned by layout().
    uint64_t offset = 0;

    bool isAlias() const { return std::holds_alternative<AliasOf>(content); }
    // Bytes serialize() writes at `offset` (empty for NoFileData, AliasOf
    // and FilledLater).
    ByteView bytes() const;
    // Whether the section advances the file offset: ByteView, owned or
    // FilledLater content. Aliases and NoFileData sections do not.
    bool occupiesFileSpace() const;
    // File bytes the content takes at `offset` (before reservedSize).
    uint64_t contentFileSize() const;
};

// How one program header's offset and sizes are obtained.
enum class SegmentSource {
    Explicit,            // offset/filesz/memsz are given
    ProgramHeaderTable,  // the program header table itself (PT_PHDR and its PT_LOAD)
    Sections,            // the sections listed in `sections`, by index
};

struct OutputProgramHeader {
    uint32_t type = elf::PT_LOAD;
    uint32_t flags = 0;
    uint64_t vaddr = 0, paddr = 0, align = 8;
    SegmentSource source = SegmentSource::Explicit;
    // For SegmentSource::Sections: section indices in file order (they need
    // not be adjacent).
    std::vector<uint32_t> sections;
    // Given for Explicit, computed by layout() otherwise (rules above).
    uint64_t offset = 0, filesz = 0, memsz = 0;
};

struct ImageHeader {
    uint8_t elfClass = elf::ELFCLASS64;
    uint8_t osabi = elf::ELFOSABI_CUDA_V8;
    uint8_t abiVersion = 8;
    uint8_t identVersion = 1;              // e_ident[EI_VERSION]
    std::array<uint8_t, 7> identPadding{}; // e_ident[9..15], zero in practice
    uint16_t type = elf::ET_EXEC;
    uint16_t machine = elf::EM_CUDA;
    uint32_t version = 1;
    uint64_t entry = 0;
    uint32_t flags = 0;
    uint32_t shstrndx = 1; // stored through section 0 when >= SHN_LORESERVE
    // e_phentsize when there are no program headers (with some it is always
    // the record size). Observed: 56 from ptxas for sm_75 and from nvlink -r
    // for sm_75..sm_90; 0 from ptxas for sm_90+ and nvlink -r for sm_100+.
    uint16_t phentsizeWithoutProgramHeaders = 0;
};

class ElfImage {
public:
    ImageHeader header;
    // Section 0 must be the null section; ElfImage() creates it.
    std::vector<ImageSection> sections;
    std::vector<OutputProgramHeader> programHeaders;

    // Escape hatch for files whose layout the rules cannot reproduce: keep
    // every recorded offset (see fromFile). The linker never sets this.
    bool preserveOffsets = false;
    uint64_t shoff = 0, phoff = 0; // assigned by layout(); inputs if preserveOffsets

    ElfImage();

    // An image equal to `file`: contents are views into `file`'s bytes. The
    // layout rules are used where they reproduce the file; slack after a
    // section becomes reservedSize; anything else irregular switches the
    // image to preserveOffsets (`why` in irregularity()).
    static ElfImage fromFile(const ElfFile &file);
    const std::string &irregularity() const { return irregularity_; }

    // Appends a section and returns its index.
    uint32_t addSection(ImageSection section);

    // sh_size of a section (an alias has the size of its twin).
    uint64_t sectionSize(uint32_t index) const;

    // Builds .shstrtab if needed, assigns all offsets, resolves computed
    // program headers. Throws FatalError on an inconsistent image.
    void layout();
    bool isLaidOut() const { return laidOut_; }
    uint64_t fileSize() const { return fileSize_; }

    // The file's bytes; layout() must have run. Input bytes are copied once,
    // straight into the result; FilledLater sections are left zero for the
    // caller to write at their offsets.
    std::vector<uint8_t> serialize() const;

    // Serializes into a temporary file next to `path` and renames it over
    // `path`; on failure removes the temporary and throws FatalError, so a
    // half-written output never appears. Runs layout() if needed.
    void writeFileAtomically(const std::string &path);

private:
    bool is64() const { return header.elfClass == elf::ELFCLASS64; }
    uint64_t ehdrSize() const;
    uint64_t shdrSize() const;
    uint64_t phdrSize() const;
    void buildSectionNames();
    void checkConsistency() const;
    void assignSectionOffsets();
    void resolveProgramHeaders();
    void computeSegment(OutputProgramHeader &ph) const;
    void writeHeader(uint8_t *out) const;
    void writeSectionHeaders(uint8_t *out) const;
    void writeProgramHeaders(uint8_t *out) const;

    bool laidOut_ = false;
    uint64_t fileSize_ = 0;
    std::string irregularity_;
};

} // namespace culd
