// .nv.info reader: records, payload bounds, symbol words, KPARAM_INFO.
#include "FuzzUtil.h"

#include "culd/NvInfo.h"

constexpr uint8_t kKparamInfo = 0x17; // EIATTR_KPARAM_INFO

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace culd;
    return fuzz::refuseOrAccept([&] {
        NvInfoContext where{"fuzz.cubin", ".nv.info"};
        std::vector<NvInfoRecord> records = parseNvInfo(fuzz::view(data, size), where);
        for (const NvInfoRecord &r : records) {
            for (uint32_t offset : symbolWordOffsets(r))
                if (offset / 4 < r.wordCount())
                    (void)r.word(offset / 4);
            if (r.code == kKparamInfo)
                (void)decodeKparamInfo(r, where);
        }
        // What is parsed must serialise back to the same records.
        (void)serializeNvInfo(records);
    });
}
