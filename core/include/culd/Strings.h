// String and path helpers, one copy for the core and the tools.
#pragma once

#include "culd/ElfFile.h"

#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

inline bool startsWith(std::string_view s, std::string_view prefix) {
    return s.substr(0, prefix.size()) == prefix;
}

inline bool endsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// `name` renamed as `from` was renamed to `to`: the tail `name` shares
// with `from` takes `to`'s tail instead, when `to` keeps the rest of `from`
// (".nv.merc.rela.nv.constant.optimizer.f", ".nv.merc.nv.constant.optimizer.f"
// -> ".nv.merc.nv.constant.optimizer.k" gives "....optimizer.k"). `name`
// itself when there is no such tail.
inline std::string renamedLike(std::string_view name, std::string_view from,
                               std::string_view to) {
    size_t common = 0;
    while (common < name.size() && common < from.size() &&
           name[name.size() - 1 - common] == from[from.size() - 1 - common])
        ++common;
    std::string_view kept = from.substr(0, from.size() - common);
    if (common == 0 || !startsWith(to, kept))
        return std::string(name);
    return std::string(name.substr(0, name.size() - common)) + std::string(to.substr(kept.size()));
}

// Whether raw bytes (a file's start) begin with `magic`.
inline bool startsWith(ByteView bytes, std::string_view magic) {
    return bytes.size >= magic.size() && std::memcmp(bytes.data, magic.data(), magic.size()) == 0;
}

// The last component of a '/'-separated path ("a/b/c.o" -> "c.o").
inline std::string_view baseName(std::string_view path) {
    const size_t slash = path.rfind('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// The non-empty items of a `separator`-separated list, in order: a search
// path ("a::b:" -> a, b) or an option's comma list.
inline std::vector<std::string> splitList(std::string_view list, char separator) {
    std::vector<std::string> items;
    size_t start = 0;
    while (start <= list.size()) {
        size_t end = list.find(separator, start);
        if (end == std::string_view::npos)
            end = list.size();
        if (end > start)
            items.emplace_back(list.substr(start, end - start));
        start = end + 1;
    }
    return items;
}

// The directories of a ':'-separated search path in an environment variable
// (none when it is unset).
inline std::vector<std::string> searchPathFromEnv(const char *variable) {
    const char *value = std::getenv(variable);
    return value ? splitList(value, ':') : std::vector<std::string>{};
}

} // namespace culd
