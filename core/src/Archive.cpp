// Reading `ar` archives. Each member header is 60 bytes of ASCII:
//   name[16] date[12] uid[6] gid[6] mode[8] size[10] "`\n"
// and data follows, padded to an even offset. GNU ar keeps names longer than
// 15 characters in the `//` member and refers to them as "/<offset>". A thin
// archive has the same headers, but only the symbol and name tables have
// data; the other members name files next to the archive.

#include "culd/Archive.h"

#include "culd/Diagnostics.h"
#include "culd/Strings.h"

#include <cstring>
#include <filesystem>

namespace culd {

namespace {

constexpr std::string_view kArchMagic = "!<arch>\n";
constexpr std::string_view kThinMagic = "!<thin>\n";
constexpr uint64_t kHeaderSize = 60;

std::string_view field(const uint8_t *header, size_t offset, size_t size) {
    std::string_view s(reinterpret_cast<const char *>(header) + offset, size);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

// A decimal field; false if empty or not all digits.
bool parseDecimal(std::string_view s, uint64_t &value) {
    if (s.empty() || s.size() > 19)
        return false;
    value = 0;
    for (char c : s) {
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + static_cast<uint64_t>(c - '0');
    }
    return true;
}

// Printable form of a raw header name for messages.
std::string printable(std::string_view s) {
    std::string out;
    for (char c : s)
        out += (c >= 0x20 && c < 0x7F) ? c : '?';
    return out;
}

class ArchiveReader {
public:
    ArchiveReader(ByteView bytes, std::string_view name, bool thin)
        : bytes_(bytes), name_(name), thin_(thin) {}

    std::vector<ArchiveMember> run();

private:
    [[noreturn]] void fail(const std::string &what) const {
        throw FatalError(std::string(name_) + ": " + what);
    }
    std::string resolveName(std::string_view raw, uint64_t headerOffset) const;
    static bool namesNestedMember(std::string_view raw);
    std::string thinPathOf(const std::string &member) const;

    ByteView bytes_;
    std::string_view name_;
    bool thin_;
    std::string_view longNames_; // the `//` member
};

std::vector<ArchiveMember> ArchiveReader::run() {
    std::vector<ArchiveMember> members;
    uint64_t at = kArchMagic.size();
    while (at < bytes_.size) {
        if (bytes_.size - at < kHeaderSize)
            fail("member header at offset " + std::to_string(at) + " is truncated (" +
                 std::to_string(bytes_.size - at) + " bytes left)");
        const uint8_t *header = bytes_.data + at;
        const std::string_view rawName = field(header, 0, 16);
        if (header[58] != '`' || header[59] != '\n')
            fail("member header at offset " + std::to_string(at) + " ('" + printable(rawName) +
                 "'): bad terminator (not an ar member header)");
        uint64_t size = 0;
        if (!parseDecimal(field(header, 48, 10), size))
            fail("member header at offset " + std::to_string(at) + " ('" + printable(rawName) +
                 "'): bad size field '" + printable(field(header, 48, 10)) + "'");
        const bool isSymbolTable = rawName == "/" || rawName == "/SYM64/";
        const bool isNameTable = rawName == "//";
        const std::string name = isSymbolTable || isNameTable ? std::string(rawName)
                                                              : resolveName(rawName, at);
        // Thin archives store only the tables' data.
        const bool hasData = !thin_ || isSymbolTable || isNameTable;
        const uint64_t dataStart = at + kHeaderSize;
        if (hasData && size > bytes_.size - dataStart)
            fail("member '" + name + "': size " + std::to_string(size) +
                 " runs past the end of the archive (" + std::to_string(bytes_.size - dataStart) +
                 " bytes left)");
        ByteView data{bytes_.data + dataStart, hasData ? size : 0};
        if (isNameTable)
            longNames_ = std::string_view(reinterpret_cast<const char *>(data.data), data.size);
        else if (!isSymbolTable)
            members.push_back({name, thin_ ? ByteView{} : data, thin_ ? thinPathOf(name) : "", at,
                               thin_ && namesNestedMember(rawName)});
        at = dataStart + data.size;
        at += at & 1; // members start at even offsets
    }
    return members;
}

// A GNU thin archive made from another archive names the members it took
// from it "/<name offset>:<member header offset in that archive>".
bool ArchiveReader::namesNestedMember(std::string_view raw) {
    return raw.size() > 1 && raw[0] == '/' && raw.find(':') != std::string_view::npos;
}

// "a.o/" (GNU), "a.o" (BSD-less SysV) or "/123" (offset into `//`, where
// the name ends in "/\n"); in a thin archive "/123:456", a member of the
// archive named at 123 (namesNestedMember).
std::string ArchiveReader::resolveName(std::string_view raw, uint64_t headerOffset) const {
    if (raw.size() < 2 || raw[0] != '/') {
        if (!raw.empty() && raw.back() == '/')
            raw.remove_suffix(1);
        return std::string(raw);
    }
    uint64_t offset = 0, nestedOffset = 0;
    std::string_view offsetText = raw.substr(1);
    if (size_t colon = offsetText.find(':'); thin_ && colon != std::string_view::npos) {
        if (!parseDecimal(offsetText.substr(colon + 1), nestedOffset))
            fail("member header at offset " + std::to_string(headerOffset) + ": bad name '" +
                 printable(raw) + "'");
        offsetText = offsetText.substr(0, colon);
    }
    if (!parseDecimal(offsetText, offset))
        fail("member header at offset " + std::to_string(headerOffset) + ": bad name '" +
             printable(raw) + "'");
    if (offset >= longNames_.size())
        fail("member header at offset " + std::to_string(headerOffset) + ": long-name offset " +
             std::to_string(offset) + " is outside the name table (" +
             std::to_string(longNames_.size()) + " bytes)");
    std::string_view rest = longNames_.substr(offset);
    const size_t end = rest.find('\n');
    if (end == std::string_view::npos)
        fail("member header at offset " + std::to_string(headerOffset) + ": long name at offset " +
             std::to_string(offset) + " is not terminated");
    rest = rest.substr(0, end);
    if (!rest.empty() && rest.back() == '/')
        rest.remove_suffix(1);
    if (rest.empty())
        fail("member header at offset " + std::to_string(headerOffset) + ": long name at offset " +
             std::to_string(offset) + " is empty");
    return std::string(rest);
}

std::string ArchiveReader::thinPathOf(const std::string &member) const {
    std::filesystem::path path(member);
    if (path.is_absolute())
        return path.string();
    return (std::filesystem::path(std::string(name_)).parent_path() / path).lexically_normal().string();
}

} // namespace

bool isArchive(ByteView bytes) { return startsWith(bytes, kArchMagic); }
bool isThinArchive(ByteView bytes) { return startsWith(bytes, kThinMagic); }

std::vector<ArchiveMember> readArchive(ByteView bytes, std::string_view archiveName) {
    const bool thin = isThinArchive(bytes);
    if (!thin && !isArchive(bytes))
        throw FatalError(std::string(archiveName) + ": not an ar archive (bad magic)");
    return ArchiveReader(bytes, archiveName, thin).run();
}

} // namespace culd
