// Fatbin reader: containers, entry headers, member choice and decompression.
#include "FuzzUtil.h"

#include "culd/Fatbin.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace culd;
    return fuzz::refuseOrAccept([&] {
        std::vector<FatbinEntry> entries = parseFatbin(fuzz::view(data, size), "fuzz.fatbin");
        for (uint32_t sm : {75u, 90u, 100u})
            (void)selectEntry(entries, FatbinTarget{sm, 0});
        for (const FatbinEntry &e : entries) {
            (void)fatbinEntryName(e);
            (void)decompressEntry(e, "fuzz.fatbin", fuzz::kFuzzDecompressLimit);
        }
    });
}
