// Register locations (.nv_debug_info_reg_sass) on the targets that link
// .debug_frame entry by entry (CULD_ARCH_F_FRAME_BY_ENTRY: nvlink 13.0 on
// sm_100+). The section, which -G units carry, has no relocations: per
// function, its name, a u32 count, then that many records of a u32, a
// register name, four bytes and the [start, end) code offsets where the
// register holds the variable. nvlink keeps the ranges of the first
// function of each name in the output and zeroes both offsets of every
// record of a later one: a weak copy that lost to an earlier definition
// (difftest seed 64036: 13 class members a second unit also defined), the
// definition that replaced an earlier weak copy (the copy keeps its
// ranges), a second unit's local `sin` (seed 64023). sm_90 keeps them all;
// the Mercury twin stays as compiled.
#include "culd/Bytes.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Hex.h"
#include "culd/Link.h"

#include <unordered_set>

namespace culd {

namespace {

// The [start, end) fields of one function's records.
struct FunctionRecords {
    std::string_view name;
    std::vector<uint64_t> rangeFields; // offsets of each record's start (end follows)
};

class RegisterTableReader {
public:
    RegisterTableReader(ByteView bytes, std::string where)
        : bytes_(bytes), where_(std::move(where)) {}

    std::vector<FunctionRecords> functions() {
        std::vector<FunctionRecords> out;
        for (uint64_t at = 0; at < bytes_.size;) {
            FunctionRecords f;
            f.name = string(at);
            uint64_t count = read(at, 4);
            if (count > (bytes_.size - at) / 17) // the smallest record is 17 bytes
                fail(at, "claims more records than the section holds");
            for (uint64_t i = 0; i < count; ++i) {
                read(at, 4);
                string(at);
                read(at, 4);
                f.rangeFields.push_back(at);
                read(at, 8);
            }
            out.push_back(std::move(f));
        }
        return out;
    }

private:
    std::string_view string(uint64_t &at) {
        uint64_t from = at;
        while (at < bytes_.size && bytes_.data[at] != 0)
            ++at;
        if (at == bytes_.size)
            fail(from, "has a name past the end of the section");
        ++at;
        return {reinterpret_cast<const char *>(bytes_.data + from), at - 1 - from};
    }
    uint64_t read(uint64_t &at, unsigned width) {
        if (width > bytes_.size - at)
            fail(at, "runs past the end of the section");
        uint64_t v = readLittle(bytes_.data + at, width);
        at += width;
        return v;
    }
    [[noreturn]] void fail(uint64_t at, const std::string &what) const {
        throw FatalError(where_ + ": the register-location record at offset " + hex(at) + " " +
                         what);
    }

    ByteView bytes_;
    std::string where_;
};

// Zeroes the ranges of the functions an earlier piece already named.
void clearRepeatedRanges(ObjectFile &file, InputSection &table,
                         std::unordered_set<std::string_view> &named) {
    std::string where = file.name() + ": section '" + std::string(table.name()) + "'";
    std::vector<FieldPatch> zeroes;
    for (const FunctionRecords &f : RegisterTableReader(table.bytes(), where).functions()) {
        if (named.insert(f.name).second)
            continue;
        for (uint64_t field : f.rangeFields)
            zeroes.push_back({field, 0, 8});
    }
    if (zeroes.empty())
        return;
    if (table.records.active || !table.patches.empty())
        throw FatalError(where + ": its register ranges and its records are both rewritten, "
                                 "which culd does not support");
    table.patches = std::move(zeroes);
}

} // namespace

void clearRepeatedRegisterRanges(Context &ctx) {
    if (!ctx.target.linksFrameByEntry())
        return;
    // The pieces in output order: the inputs' order.
    std::unordered_set<std::string_view> named;
    for (auto &file : ctx.files)
        for (InputSection *s : file->sections)
            if (s && s->isLive() && s->name() == ".nv_debug_info_reg_sass")
                clearRepeatedRanges(*file, *s, named);
}

} // namespace culd
