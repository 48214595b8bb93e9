// Host objects (x86-64 or aarch64 ET_REL files from `nvcc -rdc=true -c`):
// the device code and host-reference lists nvcc embeds in them.
//
// What nvlink links is the relocatable device code in `__nv_relfatbin`; the
// whole-program fatbin in `.nv_fatbin` (code built without -rdc) is ignored,
// as nvlink ignores it. The `.nvHR*` sections list the kernels and variables
// the host code refers to, which drive host-info dead-code elimination.
#pragma once

#include "culd/ElfFile.h"
#include "culd/Fatbin.h"

#include <string_view>
#include <vector>

namespace culd {

// Name patterns ('*' is a wildcard) from the .nvHR* sections. "External" are
// globally visible names, "internal" static ones (their patterns usually
// start with __nv_static_ and contain wildcards).
struct HostReferences {
    std::vector<std::string_view> kernelsExternal;   // .nvHRKE
    std::vector<std::string_view> kernelsInternal;   // .nvHRKI
    std::vector<std::string_view> deviceVarsExternal; // .nvHRDE
    std::vector<std::string_view> deviceVarsInternal; // .nvHRDI
    std::vector<std::string_view> constantsExternal;  // .nvHRCE
    std::vector<std::string_view> constantsInternal;  // .nvHRCI
    bool present = false; // the object has at least one .nvHR* section
};

struct HostObjectInfo {
    std::vector<FatbinEntry> entries; // of __nv_relfatbin, views into the file
    HostReferences refs;
    std::string_view moduleId;        // __nv_module_id text, empty if absent
    bool hasRelocatableDeviceCode = false;  // __nv_relfatbin present
    bool hasWholeProgramDeviceCode = false; // .nv_fatbin present (not linked)
};

// Reads the device-side content of a host object parsed with
// ElfParseOptions::allowHostMachines. `name` starts error messages.
// Throws FatalError.
HostObjectInfo readHostObject(const ElfFile &file, std::string_view name);

// Whether `name` matches a host-reference pattern; '*' matches any run of
// characters (including none), everything else matches itself.
bool matchesHostReference(std::string_view pattern, std::string_view name);

} // namespace culd
