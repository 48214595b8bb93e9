// Archive reader: GNU and thin `ar` headers, long names, member bounds.
#include "FuzzUtil.h"

#include "culd/Archive.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace culd;
    return fuzz::refuseOrAccept([&] {
        for (const ArchiveMember &m : readArchive(fuzz::view(data, size), "fuzz.a"))
            (void)m.name.size();
    });
}
