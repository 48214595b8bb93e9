// An ELF string table under construction. Equal strings share one entry;
// offset 0 is the empty string.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace culd {

class StringTable {
public:
    StringTable() { bytes_.push_back('\0'); }

    uint32_t add(std::string_view s) {
        if (s.empty())
            return 0;
        auto [it, inserted] = offsets_.try_emplace(std::string(s), 0);
        if (inserted) {
            it->second = static_cast<uint32_t>(bytes_.size());
            bytes_.insert(bytes_.end(), s.begin(), s.end());
            bytes_.push_back('\0');
        }
        return it->second;
    }

    const std::vector<uint8_t> &bytes() const { return bytes_; }

private:
    std::vector<uint8_t> bytes_;
    std::unordered_map<std::string, uint32_t> offsets_;
};

} // namespace culd
