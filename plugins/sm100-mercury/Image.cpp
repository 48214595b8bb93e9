// The ELF side of the sm_100+ finaliser: finds the kernels nvlink
// re-finalises in a linked cubin (rule W3 in Finalizer.cpp: an entry with
// EIATTR_MIN_STACK_SIZE 0 and no CALL), hands each one's .text to
// rewriteScoreboards, and writes the changed words back into a copy of the
// image made only when something changes (CopyOnWrite). fixUpImage numbers
// the Mercury capsules and fills the string-table copies the same way.
#include "Finalizer.h"
#include "Hex.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace culd::mercury {

namespace {

constexpr uint32_t kShtProgbits = 1;
constexpr uint32_t kShtSymtab = 2;
constexpr uint32_t kShtNobits = 8;
constexpr uint32_t kShtCudaInfo = 0x70000000;
constexpr uint32_t kShtCapsule = 0x70000016; // .nv.capmerc.text.<f>
constexpr uint8_t kSttFunc = 2;
constexpr uint8_t kStoCudaEntry = 0x10;
constexpr uint8_t kEifmtSval = 4;
constexpr uint8_t kEiattrMinStackSize = 0x12;

template <typename T> T load(const uint8_t *p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v; // the cubin and every host culd runs on are little-endian
}

// The memory-space sections keep their CUDA types in a relocatable cubin
// and, like SHT_NOBITS ones, take no file space there (their Mercury
// aliases, flagged, share their twins' bytes).
constexpr uint32_t kShtCudaGlobal = 0x70000007;
constexpr uint32_t kShtCudaLocal = 0x70000009;
constexpr uint32_t kShtCudaShared = 0x7000000a;
constexpr uint32_t kShtCudaSharedReserved = 0x70000015;
constexpr uint64_t kShfCudaMercury = 0x10000000;

struct SectionHeader {
    uint32_t name, type;
    uint64_t flags, offset, size;
    uint32_t link, info;

    bool hasFileData() const {
        switch (type) {
        case kShtNobits:
            return false;
        case kShtCudaGlobal:
        case kShtCudaLocal:
        case kShtCudaShared:
        case kShtCudaSharedReserved:
            return (flags & kShfCudaMercury) != 0;
        default:
            return true;
        }
    }
};

class Image {
public:
    Image(const uint8_t *data, size_t size) : data_(data), size_(size) {}

    bool parse(std::string &error) {
        if (size_ < 64 || std::memcmp(data_, "\x7f"
                                             "ELF",
                                      4) != 0)
            return fail(error, "not an ELF file");
        if (data_[4] != 2 || data_[5] != 1)
            return fail(error, "not a little-endian ELF64 file");
        uint64_t shoff = load<uint64_t>(data_ + 0x28);
        uint16_t shentsize = load<uint16_t>(data_ + 0x3a);
        uint16_t shnum = load<uint16_t>(data_ + 0x3c);
        shstrndx_ = load<uint16_t>(data_ + 0x3e);
        if (shnum == 0)
            return true;
        if (shentsize != 64 || !inBounds(shoff, uint64_t(shnum) * 64))
            return fail(error, "section header table out of bounds");
        for (uint16_t i = 0; i < shnum; ++i) {
            const uint8_t *p = data_ + shoff + uint64_t(i) * 64;
            SectionHeader h{load<uint32_t>(p),        load<uint32_t>(p + 4),
                            load<uint64_t>(p + 8),    load<uint64_t>(p + 0x18),
                            load<uint64_t>(p + 0x20), load<uint32_t>(p + 0x28),
                            load<uint32_t>(p + 0x2c)};
            if (h.hasFileData() && !inBounds(h.offset, h.size))
                return fail(error, "section " + std::to_string(i) + " lies outside the file");
            sections_.push_back(h);
        }
        if (shstrndx_ >= sections_.size())
            return fail(error, "bad section name table index");
        return true;
    }

    const std::vector<SectionHeader> &sections() const { return sections_; }
    const uint8_t *bytes(const SectionHeader &h) const { return data_ + h.offset; }

    // A NUL-terminated string at `off` of string-table section `index`.
    bool string(size_t index, uint64_t off, std::string &out) const {
        if (index >= sections_.size() || !sections_[index].hasFileData())
            return false;
        const SectionHeader &h = sections_[index];
        if (off >= h.size)
            return false;
        const char *begin = reinterpret_cast<const char *>(bytes(h)) + off;
        const void *nul = std::memchr(begin, 0, h.size - off);
        if (!nul)
            return false;
        out.assign(begin, static_cast<const char *>(nul));
        return true;
    }
    bool sectionName(size_t index, std::string &out) const {
        return string(shstrndx_, sections_[index].name, out);
    }

private:
    bool inBounds(uint64_t off, uint64_t len) const {
        return off <= size_ && len <= size_ - off;
    }
    static bool fail(std::string &error, const std::string &what) {
        error = what;
        return false;
    }
    const uint8_t *data_;
    size_t size_;
    size_t shstrndx_ = 0;
    std::vector<SectionHeader> sections_;
};

// EIATTR_MIN_STACK_SIZE of the global .nv.info, by symbol index.
bool minStackSizes(const Image &image, std::unordered_map<uint32_t, uint32_t> &out,
                   std::string &error) {
    const auto &secs = image.sections();
    for (size_t i = 0; i < secs.size(); ++i) {
        std::string name;
        if (secs[i].type != kShtCudaInfo || !image.sectionName(i, name) || name != ".nv.info")
            continue;
        const uint8_t *d = image.bytes(secs[i]);
        uint64_t size = secs[i].size, p = 0;
        while (size - p >= 4) {
            uint8_t format = d[p], code = d[p + 1];
            uint16_t len = load<uint16_t>(d + p + 2);
            p += 4;
            if (format != kEifmtSval)
                continue;
            if (len > size - p) {
                error = ".nv.info: attribute " + hex(code) + " runs past the section";
                return false;
            }
            if (code == kEiattrMinStackSize && len >= 8)
                out[load<uint32_t>(d + p)] = load<uint32_t>(d + p + 4);
            p += len;
        }
    }
    return true;
}

// Sections by name, for the per-kernel sections found by name.
std::unordered_map<std::string, size_t> sectionsByName(const Image &image) {
    std::unordered_map<std::string, size_t> byName;
    for (size_t i = 0; i < image.sections().size(); ++i) {
        std::string name;
        if (image.sectionName(i, name))
            byName.emplace(std::move(name), i);
    }
    return byName;
}

// The code offsets a kernel's jump tables hold: the words of its
// .nv.constant2.<k> that the relocations of the Mercury twin
// (.nv.merc.rela.nv.constant.optimizer.<k>, R_MERCURY_PROG_REL32 against
// the kernel, symbol indices shared with .symtab) mark as addresses in the
// kernel. The SASS words are offsets from the kernel's start.
bool jumpTableTargets(const Image &image, const std::unordered_map<std::string, size_t> &byName,
                      const std::string &kernel, uint32_t symbol, std::vector<uint64_t> &targets,
                      std::string &error) {
    constexpr uint32_t kProgRel32 = 0x10008;
    targets.clear();
    auto rela = byName.find(".nv.merc.rela.nv.constant.optimizer." + kernel);
    if (rela == byName.end())
        return true;
    auto bank = byName.find(".nv.constant2." + kernel);
    const SectionHeader &r = image.sections()[rela->second];
    if (bank == byName.end() || r.size % 24 != 0 ||
        !image.sections()[bank->second].hasFileData()) {
        error = "its jump tables' relocations have no bank to read";
        return false;
    }
    const SectionHeader &b = image.sections()[bank->second];
    for (uint64_t at = 0; at < r.size; at += 24) {
        const uint8_t *e = image.bytes(r) + at;
        uint64_t offset = load<uint64_t>(e), info = load<uint64_t>(e + 8);
        if (static_cast<uint32_t>(info) != kProgRel32 || info >> 32 != symbol)
            continue;
        if (offset > b.size || b.size - offset < 4) {
            error = "a jump-table relocation at " + hex(offset) + " lies outside its bank";
            return false;
        }
        targets.push_back(load<uint32_t>(image.bytes(b) + offset));
    }
    std::sort(targets.begin(), targets.end());
    targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
    return true;
}

// The image's bytes, copied on the first write: a pass that changes
// nothing copies nothing, one that changes much copies once.
class CopyOnWrite {
public:
    CopyOnWrite(const uint8_t *data, size_t size) : data_(data), size_(size) {}
    uint8_t *at(uint64_t offset) {
        if (result_.image.empty())
            result_.image.assign(data_, data_ + size_);
        return result_.image.data() + offset;
    }
    FinalizeResult finish() {
        result_.status = result_.image.empty() ? FinalizeResult::Status::Unchanged
                                               : FinalizeResult::Status::Rewritten;
        return std::move(result_);
    }
    FinalizeResult &result() { return result_; }

private:
    const uint8_t *data_;
    size_t size_;
    FinalizeResult result_;
};

FinalizeResult failure(const std::string &what) {
    FinalizeResult r;
    r.status = FinalizeResult::Status::Error;
    r.error = what;
    return r;
}

} // namespace

FinalizeResult finalizeImage(const uint8_t *data, size_t size, Allocation allocation) {
    Image image(data, size);
    std::string error;
    if (!image.parse(error))
        return failure(error);
    std::unordered_map<uint32_t, uint32_t> stack;
    if (!minStackSizes(image, stack, error))
        return failure(error);

    const auto &secs = image.sections();
    const auto byName = sectionsByName(image);
    CopyOnWrite out(data, size);
    for (size_t si = 0; si < secs.size(); ++si) {
        const SectionHeader &symtab = secs[si];
        if (symtab.type != kShtSymtab)
            continue;
        if (symtab.size % 24 != 0)
            return failure(".symtab: size is not a multiple of 24");
        const uint8_t *syms = image.bytes(symtab);
        for (uint32_t k = 0; k < symtab.size / 24; ++k) {
            const uint8_t *sym = syms + uint64_t(k) * 24;
            uint8_t info = sym[4], other = sym[5];
            uint16_t shndx = load<uint16_t>(sym + 6);
            if ((info & 0xf) != kSttFunc || !(other & kStoCudaEntry))
                continue;
            auto st = stack.find(k);
            if (st == stack.end() || st->second != 0)
                continue; // a stack, or unknown: the R1 load stays needed
            std::string name;
            if (!image.string(symtab.link, load<uint32_t>(sym), name))
                return failure(".symtab: symbol " + std::to_string(k) + " has a bad name");
            if (shndx == 0 || shndx >= secs.size() || secs[shndx].type != kShtProgbits)
                return failure("kernel '" + name + "': bad section index " +
                               std::to_string(shndx));
            const SectionHeader &text = secs[shndx];
            if (text.size % 16 != 0)
                return failure("kernel '" + name + "': .text size is not a multiple of 16");
            std::vector<Insn> code = readCode(image.bytes(text), text.size);
            if (std::any_of(code.begin(), code.end(), isCall))
                continue;
            std::vector<uint64_t> targets;
            if (!jumpTableTargets(image, byName, name, k, targets, error))
                return failure("kernel '" + name + "': " + error);
            std::vector<Insn> before = code;
            if (!rewriteScoreboards(code, error, allocation, targets))
                return failure("kernel '" + name + "': " + error);
            if (code == before)
                continue;
            writeCode(out.at(text.offset), code);
            out.result().rewritten.push_back(name);
        }
    }
    return out.finish();
}

namespace {

// A capsule's first word is the section index of its function's .text
// (the compiler's, renumbered by nvlink): the capsule's sh_info names the
// function in .symtab, whose st_shndx is that index.
bool numberCapsules(const Image &image, CopyOnWrite &out, std::string &error) {
    const auto &secs = image.sections();
    const SectionHeader *symtab = nullptr;
    for (const SectionHeader &h : secs)
        if (h.type == kShtSymtab && !symtab)
            symtab = &h;
    for (size_t i = 0; i < secs.size(); ++i) {
        const SectionHeader &capsule = secs[i];
        if (capsule.type != kShtCapsule)
            continue;
        if (!symtab || capsule.info == 0 || capsule.info >= symtab->size / 24 ||
            capsule.size < 4) {
            error = "capsule section " + std::to_string(i) + " names no function";
            return false;
        }
        uint32_t text = load<uint16_t>(image.bytes(*symtab) + uint64_t(capsule.info) * 24 + 6);
        if (load<uint32_t>(image.bytes(capsule)) != text)
            std::memcpy(out.at(capsule.offset), &text, 4);
    }
    return true;
}

// sm_110's Mercury copy of reserved shared memory (.nv.merc.nv.shared.
// reserved.0) holds at 0x40 a copy of a .shstrtab section header (name 1,
// SHT_STRTAB, offset 0x40, alignment 1) whose sh_size, at 0x60, is the
// offset of the first .nv.constant0.<k> section's name in the output's own
// .shstrtab: the size the table had when nvlink took the copy (measured on
// 66 of 66 links, -r too; the compiler's copy holds its own offset).
bool fillStringTableCopies(const Image &image, CopyOnWrite &out, std::string &error) {
    constexpr uint64_t kHeaderCopy = 0x40, kSizeField = kHeaderCopy + 0x20;
    const auto &secs = image.sections();
    std::optional<uint32_t> firstBankName;
    for (size_t i = 0; i < secs.size() && !firstBankName; ++i) {
        std::string name;
        if (image.sectionName(i, name) && name.rfind(".nv.constant0.", 0) == 0)
            firstBankName = secs[i].name;
    }
    for (size_t i = 0; i < secs.size(); ++i) {
        std::string name;
        if (!image.sectionName(i, name) || name.rfind(".nv.merc.nv.shared.reserved.", 0) != 0 ||
            !secs[i].hasFileData() || secs[i].size < kHeaderCopy + 0x40)
            continue;
        const uint8_t *copy = image.bytes(secs[i]) + kHeaderCopy;
        bool stringTableHeader = load<uint32_t>(copy) == 1 && load<uint32_t>(copy + 4) == 3 &&
                                 load<uint64_t>(copy + 0x18) == kHeaderCopy &&
                                 load<uint64_t>(copy + 0x30) == 1;
        if (!stringTableHeader) {
            error = "section '" + name + "' does not hold the string-table header copy culd knows";
            return false;
        }
        if (!firstBankName) {
            error = "section '" + name +
                    "' copies a string-table size culd cannot derive: the output has no "
                    ".nv.constant0 section";
            return false;
        }
        uint64_t value = *firstBankName;
        if (load<uint64_t>(copy + 0x20) != value)
            std::memcpy(out.at(secs[i].offset + kSizeField), &value, 8);
    }
    return true;
}

} // namespace

FinalizeResult fixUpImage(const uint8_t *data, size_t size) {
    Image image(data, size);
    std::string error;
    if (!image.parse(error))
        return failure(error);
    CopyOnWrite out(data, size);
    // Neither moves a section: both read the one parse.
    if (!numberCapsules(image, out, error) || !fillStringTableCopies(image, out, error))
        return failure(error);
    return out.finish();
}

} // namespace culd::mercury
