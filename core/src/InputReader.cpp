// Reading the link's inputs, whatever they are: nvlink's dispatch, by
// content (the extension is only a tie-breaker).
//   cubin            linked as is (its SM checked against the target)
//   host object      the fatbins of __nv_relfatbin: the entry chosen for the
//                    target (cubin, or PTX compiled with ptxas); .nv_fatbin
//                    (non-rdc code) is ignored, as nvlink does
//   fatbin           the same choice
//   archive          every host-object member (whole-archive), except
//                    libcudadevrt, linked only when it defines something
//                    still undefined (or with --keep-system-libraries); other
//                    members (cubins, fatbins, PTX, archives) are ignored
//   PTX              compiled with ptxas
//   LTO IR           with -lto, collected for link-time optimisation
//                    (Lto.cpp); so are host objects and fatbins whose entry
//                    for the target is LTO IR
//   shared objects and anything unknown are ignored
#include "culd/Archive.h"
#include "culd/Context.h"
#include "culd/Diagnostics.h"
#include "culd/Fatbin.h"
#include "culd/HostObject.h"
#include "culd/InputChecks.h"
#include "culd/InputKind.h"
#include "culd/Libraries.h"
#include "culd/Link.h"
#include "culd/Ptxas.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>
#include <unordered_set>

namespace fs = std::filesystem;

namespace culd {

namespace {

constexpr uint64_t kNvlinkHeaderRead = 56;

class InputReader {
public:
    explicit InputReader(Context &ctx) : ctx_(ctx) {}

    // An input named on the command line. nvlink reads a 56-byte header from
    // every input that is not an archive: a shorter file that is not empty
    // is "Could not open input file" (fatal), whatever its content -- a tiny
    // text or PTX file included. Longer unrecognised files and empty ones
    // are skipped (culd warns).
    void readInputFile(const std::string &path, const InputBuffer *inMemory = nullptr) {
        std::unique_ptr<MappedFile> map =
            inMemory && inMemory->data
                ? MappedFile::view(path, ByteView{inMemory->data, inMemory->size})
                : MappedFile::open(path);
        const ByteView bytes = map->bytes();
        if (bytes.size != 0 && bytes.size < kNvlinkHeaderRead) {
            InputKind kind = detectInputKind(bytes, path);
            if (kind != InputKind::Archive && kind != InputKind::ThinArchive)
                throw FatalError("Could not open input file '" + path + "': " +
                                 std::to_string(bytes.size) +
                                 " bytes, too short for any input nvlink reads");
        }
        read(std::move(map), path, false);
    }

    void readPath(const std::string &path, bool systemLibrary = false) {
        std::unique_ptr<MappedFile> map = MappedFile::open(path);
        read(std::move(map), path, systemLibrary);
    }

    // libcudadevrt's device code joins only if it defines a symbol the other
    // inputs leave undefined (nvlink: "only what is needed").
    void addDeferredSystemCode() {
        if (deferred_.empty())
            return;
        std::unordered_set<std::string_view> defined, undefined;
        for (auto &file : ctx_.files)
            for (const ElfSymbol &s : file->elf().symbols())
                if (s.bind() != elf::STB_LOCAL)
                    (s.isUndefined() ? undefined : defined).insert(s.name);
        for (auto &d : deferred_) {
            bool needed = ctx_.opts.keepSystemLibraries;
            for (const ElfSymbol &s : d.file->elf().symbols())
                if (!needed && !s.isUndefined() && s.bind() != elf::STB_LOCAL &&
                    undefined.count(s.name) && !defined.count(s.name))
                    needed = true;
            if (!needed)
                continue;
            // nvlink 13.0 -r links the device runtime as culd does, its
            // .nv.ptx.const0.size written as for an undefined variable
            // (Relocations.cpp); what older toolkits write is not measured.
            if (ctx_.opts.relocatable &&
                (!ctx_.target.undefinedDataMinusOne() || ctx_.anyInputElfAbiV7()))
                throw FatalError(d.file->name() + ": linking the device runtime library into a "
                                                  "relocatable link (-r) is not supported for "
                                                  "these inputs");
            spdlog::debug("linking {} (needed)", d.file->name());
            ctx_.hostModules.push_back(std::move(d.module));
            ctx_.files.push_back(std::move(d.file));
        }
        deferred_.clear();
    }

private:
    void read(std::unique_ptr<MappedFile> map, const std::string &name, bool systemLibrary) {
        InputKind kind = detectInputKind(map->bytes(), name);
        checkExtension(kind, name, map->bytes());
        switch (kind) {
        case InputKind::Cubin:
            ctx_.inputsWithoutHostInfo = true;
            addCubin(std::move(map), name);
            return;
        case InputKind::HostObject:
            return readHostObjectFile(std::move(map), name, systemLibrary);
        case InputKind::Fatbin:
            ctx_.inputsWithoutHostInfo = true;
            return readFatbin(std::move(map), name);
        case InputKind::Archive:
        case InputKind::ThinArchive:
            return readArchiveFile(std::move(map), name, systemLibrary);
        case InputKind::Ptx:
            ctx_.inputsWithoutHostInfo = true;
            return addPtx(std::string(reinterpret_cast<const char *>(map->bytes().data),
                                      map->bytes().size),
                          name);
        case InputKind::LtoIr:
            if (ctx_.opts.lto) {
                ctx_.ltoInputs.push_back({name, map->bytes(), JitLinkInput::LtoIr});
                ctx_.keepAlive.push_back(std::move(map));
                return;
            }
            throw FatalError(name + ": LTO IR input requires -lto (link-time optimization)");
        case InputKind::SharedObject:
            spdlog::debug("ignore input {}", name);
            return;
        case InputKind::Unknown:
            // nvlink skips it silently; a user is better told, as an info
            // so that -Werror does not refuse what nvlink links.
            Diagnostics::get().info("ignoring input '" + name + "': not a cubin, host object, "
                                    "fatbin, archive or PTX file");
            return;
        }
    }

    // nvlink trusts a .cubin or .fatbin name and refuses content that does
    // not match it ("cubin not an elf?", "fatbin wrong format?").
    static void checkExtension(InputKind kind, const std::string &name, ByteView bytes) {
        std::string ext = fs::path(name).extension().string();
        if (ext == ".cubin" && kind != InputKind::Cubin)
            throw FatalError(name + (bytes.empty() ? ": empty file, not a cubin"
                                                   : ": not a cubin (no CUDA device ELF header)"));
        if (ext == ".fatbin" && kind != InputKind::Fatbin)
            throw FatalError(name + ": not a fatbin (wrong magic)");
    }

    // nvlink skips some cubins without a word, whatever their arch, named
    // directly or found in a fatbin (docs/nvlink-findings.md, Refusals): a
    // whole-program (ET_EXEC) cubin, which has nothing left to link, and one
    // that is not ELF64 little-endian (e_ident class or data patched).
    static bool isSkippedCubin(ByteView bytes) {
        if (bytes.size < 20)
            return false;
        if (bytes.data[elf::EI_CLASS] != elf::ELFCLASS64 || bytes.data[elf::EI_DATA] != elf::ELFDATA2LSB)
            return true;
        uint16_t type = uint16_t(bytes.data[16] | bytes.data[17] << 8);
        uint16_t machine = uint16_t(bytes.data[18] | bytes.data[19] << 8);
        return machine == elf::EM_CUDA && type != elf::ET_REL;
    }

    // The file added (nullptr when the input is skipped).
    ObjectFile *addCubin(std::unique_ptr<MappedFile> map, const std::string &name) {
        if (isSkippedCubin(map->bytes())) {
            spdlog::debug("ignore input {}: not a relocatable ELF64 little-endian cubin", name);
            return nullptr;
        }
        // nvlink's words; libcudadevrt (held back here) is not named.
        if (ctx_.opts.lto && !deferring_)
            Diagnostics::get().info("requested LTO but '" + name +
                                    "' not built for LTO so doing partial LTO");
        std::unique_ptr<ObjectFile> file = ObjectFile::fromBytes(std::move(map), name, order_++);
        checkCudaVersions(name, file->elf(), ctx_.opts.cudaApiVersion);
        if (!ctx_.target.acceptsInputSm(file->sm()))
            throw FatalError("Input file '" + name + "' arch does not match target '" +
                             ctx_.opts.archText + "' (file is sm_" + std::to_string(file->sm()) +
                             ")");
        ObjectFile *added = file.get();
        if (deferring_)
            pending_ = std::move(file);
        else
            ctx_.files.push_back(std::move(file));
        return added;
    }

    void addPtx(const std::string &ptx, const std::string &name) {
        std::vector<uint8_t> cubin =
            compilePtx(ptx, name, ctx_.opts.archText, findPtxas(ctx_.opts.ptxasPath));
        addCubin(MappedFile::fromMemory(name, std::move(cubin)), name);
    }

    void readHostObjectFile(std::unique_ptr<MappedFile> map, const std::string &name,
                            bool systemLibrary) {
        ElfParseOptions parse;
        parse.allowHostMachines = true;
        ElfFile elf = ElfFile::parse(name, map->bytes(), parse);
        HostObjectInfo info = readHostObject(elf, name);
        ctx_.deviceRuntimeRead |= systemLibrary;
        if (!info.hasRelocatableDeviceCode)
            return; // non-rdc device code (.nv_fatbin) is not linked
        Context::HostModule module;
        module.moduleId = std::string(info.moduleId);
        module.hasHostInfo = info.refs.present;
        module.systemLibrary = systemLibrary;
        for (const auto *list : {&info.refs.kernelsExternal, &info.refs.kernelsInternal})
            for (std::string_view p : *list)
                module.kernelPatterns.emplace_back(p);
        for (const auto *list :
             {&info.refs.deviceVarsExternal, &info.refs.deviceVarsInternal,
              &info.refs.constantsExternal, &info.refs.constantsInternal})
            for (std::string_view p : *list)
                module.variablePatterns.emplace_back(p);
        // The entries are views into this file: keep it mapped for the link.
        ctx_.keepAlive.push_back(std::move(map));
        if (systemLibrary && !ctx_.opts.keepSystemLibraries) {
            deferring_ = true;
            readEntries(info.entries, name, {name, elf.bytes(), JitLinkInput::Object});
            deferring_ = false;
            if (pending_)
                deferred_.push_back({std::move(pending_), std::move(module)});
            return;
        }
        size_t before = ctx_.files.size(), ltoBefore = ctx_.ltoInputs.size();
        readEntries(info.entries, name, {name, elf.bytes(), JitLinkInput::Object});
        if (ctx_.files.size() > before || ctx_.ltoInputs.size() > ltoBefore)
            ctx_.hostModules.push_back(std::move(module));
    }

    void readFatbin(std::unique_ptr<MappedFile> map, const std::string &name) {
        std::vector<FatbinEntry> entries = parseFatbin(map->bytes(), name);
        const ByteView bytes = map->bytes();
        ctx_.keepAlive.push_back(std::move(map)); // the entries view into it
        readEntries(entries, name, {name, bytes, JitLinkInput::Fatbin});
    }

    // The entry nvlink would choose for the target, decompressed, linked.
    // With -lto an LTO IR entry wins, and `container` (the host object or
    // fatbin holding the entries) joins the link-time optimisation.
    void readEntries(const std::vector<FatbinEntry> &entries, const std::string &name,
                     const Context::LtoInput &container) {
        FatbinTarget target{ctx_.target.sm(), ctx_.opts.archSuffix};
        FatbinSelectOptions select;
        select.wantLtoIr = ctx_.opts.lto;
        const Target &arch = ctx_.target;
        select.cubinCompatible = [&arch](uint32_t sm, char) { return arch.acceptsInputSm(sm); };
        const FatbinEntry *entry = selectEntry(entries, target, select);
        const FatbinEntry *ptx = crossTargetPtx(entries, entry, target);
        if (auto why = ctx_.ptxInsteadOfCubin.find(name); ptx && why != ctx_.ptxInsteadOfCubin.end()) {
            warnPtxInsteadOfCubin(name, *entry, *ptx, why->second);
            entry = ptx;
        }
        if (!entry) {
            for (const FatbinEntry &e : entries)
                if (e.isLtoIr() && ptxCompilesFor(e.sm, e.suffix, target))
                    throw FatalError("LTO objects found, use -dlto (in '" + name + "')");
            if (!ctx_.opts.suppressArchWarning)
                Diagnostics::get().warning("SM Arch ('" + ctx_.opts.archText +
                                           "') not found in '" + name + "'");
            return;
        }
        if (entry->isLtoIr()) {
            ctx_.ltoInputs.push_back(container);
            return;
        }
        std::vector<uint8_t> bytes = entry->compressed()
                                         ? decompressWithinBudget(*entry, name)
                                         : std::vector<uint8_t>(entry->payload.begin(),
                                                                entry->payload.end());
        if (entry->isPtx()) {
            // Device code compiled from PTX carries no host information, so
            // (as with nvlink) host-info dead-code elimination is off --
            // except for PTX culd takes where nvlink takes the cubin, whose
            // host information still holds for the same functions.
            if (entry != ptx)
                ctx_.inputsWithoutHostInfo = true;
            return addPtx(std::string(bytes.begin(), bytes.end()), name);
        }
        if (!entry->isElf())
            throw FatalError(name + ": the " + fatbinEntryName(*entry) +
                             " entry chosen for " + ctx_.opts.archText +
                             " cannot be linked by culd yet");
        ObjectFile *file = addCubin(MappedFile::fromMemory(name, std::move(bytes)), name);
        if (file)
            file->ptxAlternative = ptx != nullptr;
    }

    // The PTX entry the target's ptxas compiles, when `chosen` is a cubin
    // made for another SM of the family (sm_100 code for sm_103): the code
    // culd links where nvlink would regenerate some of that cubin's
    // functions, which culd cannot do.
    const FatbinEntry *crossTargetPtx(const std::vector<FatbinEntry> &entries,
                                      const FatbinEntry *chosen, FatbinTarget target) const {
        if (!chosen || !chosen->isElf() || chosen->sm == target.sm)
            return nullptr;
        FatbinSelectOptions select;
        select.ptxOnly = true;
        return selectEntry(entries, target, select);
    }

    // nvlink would link `cubin`, regenerating `function` for the target;
    // the output's code differs from nvlink's, so culd says so.
    void warnPtxInsteadOfCubin(const std::string &name, const FatbinEntry &cubin,
                               const FatbinEntry &ptx, const std::string &function) {
        Diagnostics::get().warning(
            offFastPathMessage(name, function, fatbinEntryName(cubin), ctx_.opts.archText) +
            ", so culd compiles the input's " + fatbinEntryName(ptx) + " PTX for " +
            ctx_.opts.archText + " instead: the output's code differs from nvlink's");
    }

    // Every compressed entry of the link draws on one budget, so that many
    // small inputs cannot together decompress to more than the limit.
    std::vector<uint8_t> decompressWithinBudget(const FatbinEntry &entry, const std::string &name) {
        const uint64_t limit = ctx_.opts.limits.maxDecompressedBytes;
        if (entry.uncompressedSize > limit - decompressed_)
            throw FatalError(name + ": the " + fatbinEntryName(entry) + " entry would decompress to " +
                             std::to_string(entry.uncompressedSize) + " bytes, past the link's limit of " +
                             std::to_string(limit) + " decompressed bytes (--max-decompressed-size)");
        std::vector<uint8_t> bytes = decompressEntry(entry, name, limit - decompressed_);
        decompressed_ += bytes.size();
        return bytes;
    }

    void readArchiveFile(std::unique_ptr<MappedFile> map, const std::string &name,
                         bool systemLibrary) {
        // nvlink reads an archive given again on the command line (the
        // same file: by path, through a symbolic link or -l) only once;
        // build systems repeat libraries freely. Objects given twice are
        // read twice (and conflict), as in nvlink.
        if (!archivesRead_.insert(fileIdentity(name)).second) {
            spdlog::debug("{}: archive read already, skipped", name);
            return;
        }
        bool devrt = systemLibrary || isDeviceRuntimeLibrary(name);
        std::vector<ArchiveMember> members = readArchive(map->bytes(), name);
        archiveMembers_ += members.size();
        if (archiveMembers_ > ctx_.opts.limits.maxArchiveMembers)
            throw FatalError(name + ": the link's archives hold more than " +
                             std::to_string(ctx_.opts.limits.maxArchiveMembers) +
                             " members (--max-archive-members)");
        fs::path dir = fs::path(name).parent_path();
        for (ArchiveMember &m : members) {
            if (m.inNestedArchive) {
                ignoreArchiveMember(name + ":" + m.name, InputKind::Archive);
                continue;
            }
            if (!m.thinPath.empty()) {
                std::string path = (dir / m.thinPath).string();
                readArchiveMember(MappedFile::open(path), path, devrt);
                continue;
            }
            // A view into the archive's mapping, which lives as long as the
            // link: nested archives are not copied at every level. Messages
            // name the member as nvlink does: "libx.a:m.o".
            std::string memberName = name + ":" + m.name;
            ctx_.archiveMembers.emplace(memberName, std::make_pair(name, m.name));
            readArchiveMember(MappedFile::view(memberName, m.data), memberName, devrt);
        }
        ctx_.keepAlive.push_back(std::move(map));
    }

    // nvlink links only the host objects of an archive, told by content
    // (the member's name is not checked): a cubin, fatbin or PTX member, or
    // a nested archive, adds nothing, even a definition another input needs
    // (docs/nvlink-findings.md, Archives).
    void readArchiveMember(std::unique_ptr<MappedFile> map, const std::string &name,
                           bool systemLibrary) {
        InputKind kind = detectInputKind(map->bytes(), name);
        if (kind != InputKind::HostObject)
            return ignoreArchiveMember(name, kind);
        readHostObjectFile(std::move(map), name, systemLibrary);
    }

    // nvlink is silent; culd says it, as an info, which -Werror leaves alone.
    static void ignoreArchiveMember(const std::string &name, InputKind kind) {
        Diagnostics::get().info("ignoring archive member '" + name + "' (" + inputKindName(kind) +
                                " content): nvlink links only the host objects of an archive");
    }

    struct Deferred {
        std::unique_ptr<ObjectFile> file;
        Context::HostModule module;
    };

    Context &ctx_;
    uint32_t order_ = 0;
    bool deferring_ = false;
    std::unique_ptr<ObjectFile> pending_; // libcudadevrt's cubin, held back while deferring
    std::vector<Deferred> deferred_;
    uint64_t decompressed_ = 0;              // bytes all fatbin entries decompressed to
    uint64_t archiveMembers_ = 0;            // members of every archive read
    std::unordered_set<std::string> archivesRead_; // command-line archives, by fileIdentity

    static std::string fileIdentity(const std::string &path) {
        std::error_code ec;
        std::string key = fs::weakly_canonical(path, ec).string();
        return ec || key.empty() ? path : key;
    }
};

} // namespace

// Libraries of a host link line that nvcc and CMake pass on to the device
// link, where they never hold device code.
static bool isHostSystemLibrary(const std::string &lib) {
    static const char *const hostLibraries[] = {
        "c",    "m",       "dl",   "rt",      "pthread", "stdc++", "gcc",        "gcc_s",
        "util", "atomic",  "cuda", "cudart",  "cudart_static", "culibos", "nvToolsExt"};
    return std::find(std::begin(hostLibraries), std::end(hostLibraries), lib) !=
           std::end(hostLibraries);
}

void readInputs(Context &ctx) {
    InputReader reader(ctx);
    const std::vector<InputBuffer> &buffers = ctx.opts.inputBuffers;
    for (size_t i = 0; i < ctx.opts.inputs.size(); ++i)
        reader.readInputFile(ctx.opts.inputs[i], i < buffers.size() ? &buffers[i] : nullptr);
    std::vector<std::string> searchPath = librarySearchPath(ctx.opts.libraryPaths);
    for (const std::string &lib : ctx.opts.libraries) {
        std::optional<std::string> path = findLibrary(lib, searchPath);
        if (!path) {
            // nvlink goes on without a word. Host libraries (-lrt, -lpthread
            // from CMake's and nvcc's link lines) are expected to be absent:
            // silent; any other is worth an info (not a warning, so that
            // -Werror does not refuse what nvlink links).
            if (!isHostSystemLibrary(lib))
                Diagnostics::get().info("cannot find library -l" + lib);
            continue;
        }
        reader.readPath(*path, isDeviceRuntimeLibrary(*path));
    }
    reader.addDeferredSystemCode();
}

} // namespace culd
