// Host-object reader: a host ELF, its __nv_relfatbin fatbin and .nvHR* lists.
#include "FuzzUtil.h"

#include "culd/Fatbin.h"
#include "culd/HostObject.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace culd;
    return fuzz::refuseOrAccept([&] {
        ElfParseOptions options;
        options.allowHostMachines = true;
        ElfFile elf = ElfFile::parse("fuzz.o", fuzz::view(data, size), options);
        HostObjectInfo info = readHostObject(elf, "fuzz.o");
        for (const FatbinEntry &e : info.entries)
            (void)decompressEntry(e, "fuzz.o", fuzz::kFuzzDecompressLimit);
    });
}
