// The core asks the plugin: for every hook and every arch-record or
// relocation-row field the core consumes, a mock descriptor (a copy of the
// real sm70 / sm90 plugin's, with one value changed) links the same inputs
// and the output or the outcome changes.
#include "LinkUtil.h"

#include "culd/DebugFrame.h"
#include "culd/Elf.h"
#include "culd/NvInfo.h"

#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

#include <fcntl.h>
#include <unistd.h>

using namespace culd;
using namespace culd::test;

namespace {

const Plugin &realPlugin(const std::string &name) {
    static std::unordered_map<std::string, std::unique_ptr<Plugin>> loaded;
    std::unique_ptr<Plugin> &p = loaded[name];
    if (!p)
        p = Plugin::load(std::string(CULD_BUILD_PLUGIN_DIR) + "/libculd-plugin-" + name + ".so");
    return *p;
}

// An editable copy of a real plugin's descriptor and tables.
struct MockDescriptor {
    culd_plugin_descriptor desc{};
    std::vector<culd_arch_info> archs;
    std::vector<culd_reloc_desc> relocs;

    explicit MockDescriptor(const std::string &real) {
        const Plugin &p = realPlugin(real);
        desc = p.descriptor();
        desc.name = "mock";
        for (uint32_t sm : p.sms())
            archs.push_back(*p.arch(sm));
        // R_CUDA types, then R_MERCURY (0x10000 + index).
        for (uint32_t base : {0u, 0x10000u})
            for (uint32_t type = base; type < base + 0x1000; ++type)
                if (const culd_reloc_desc *r = p.reloc(type))
                    relocs.push_back(*r);
    }

    culd_arch_info &arch(uint32_t sm) {
        for (culd_arch_info &a : archs)
            if (a.sm == sm)
                return a;
        FAIL("no arch " << sm);
        return archs.front();
    }

    std::unique_ptr<Plugin> plugin() {
        desc.archs = archs.data();
        desc.num_archs = static_cast<uint32_t>(archs.size());
        desc.arch_info_size = sizeof(culd_arch_info);
        desc.relocs = relocs.data();
        desc.num_relocs = static_cast<uint32_t>(relocs.size());
        desc.reloc_desc_size = sizeof(culd_reloc_desc);
        return Plugin::fromDescriptor(&desc, "mock");
    }
};

struct LinkResult {
    std::string outcome; // "ok" or the error
    std::vector<uint8_t> image;
    unsigned warnings = 0;
    std::string diagnostics; // what went to stderr

    ElfFile elf() const { return ElfFile::parse("out", ByteView{image.data(), image.size()}); }
    const ElfSection *section(const std::string &name) const {
        static thread_local std::unique_ptr<ElfFile> keep;
        keep = std::make_unique<ElfFile>(elf());
        for (const ElfSection &s : keep->sections())
            if (s.name == name)
                return &s;
        return nullptr;
    }
    bool hasSectionStartingWith(const std::string &prefix) const {
        ElfFile f = elf();
        for (const ElfSection &s : f.sections())
            if (std::string(s.name).rfind(prefix, 0) == 0)
                return true;
        return false;
    }
};

// The CAN_FASTPATH_FINALIZE mask of an output's .nv.compat (~0u: none).
uint32_t fastpathMask(const LinkResult &r) {
    const ElfSection *compat = r.section(".nv.compat");
    if (!compat)
        return ~0u;
    for (const NvInfoRecord &rec : parseNvInfo(compat->data, {"out", ".nv.compat"}))
        if (rec.code == EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE && rec.wordCount())
            return rec.word(0);
    return ~0u;
}

fs::path fixture(const std::string &caseName, const std::string &arch, const std::string &file) {
    return fixturesDir() / caseName / arch / file;
}

// Links `inputs` for `arch` with `mock`'s plugin; `extra` are more options.
LinkResult link(MockDescriptor &mock, const std::string &arch, std::vector<fs::path> inputs,
                std::vector<std::string> extra = {}) {
    TempDir dir;
    fs::path out = dir.path() / "out.cubin";
    std::vector<std::string> args = {"-arch=" + arch};
    for (const fs::path &in : inputs)
        args.push_back(in.string());
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("-o");
    args.push_back(out.string());
    Diagnostics::get().reset();
    LinkResult r;
    // Diagnostics print to stderr: catch them in a file for the checks.
    fs::path err = dir.path() / "stderr";
    std::fflush(stderr);
    int saved = dup(2);
    int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(fd, 2);
    close(fd);
    try {
        std::unique_ptr<Plugin> plugin = mock.plugin();
        runLink(parseOptions(args), *plugin);
        r.outcome = "ok";
        r.image = readFile(out);
    } catch (const FatalError &e) {
        r.outcome = e.what();
    }
    std::fflush(stderr);
    dup2(saved, 2);
    close(saved);
    std::vector<uint8_t> text = readFile(err);
    r.diagnostics.assign(text.begin(), text.end());
    r.warnings = Diagnostics::get().warningCount();
    return r;
}

std::vector<fs::path> crossFile(const std::string &arch);

// `inputs` (02-cross-file-call when empty) linked for sm_<sm> by a copy of
// `real`, as it is and with its arch record changed by `edit`; both links
// must succeed.
std::pair<LinkResult, LinkResult> linkEdited(const std::string &real, uint32_t sm,
                                             const std::function<void(culd_arch_info &)> &edit,
                                             std::vector<std::string> extra = {},
                                             std::vector<fs::path> inputs = {}) {
    const std::string arch = "sm_" + std::to_string(sm);
    if (inputs.empty())
        inputs = crossFile(arch);
    MockDescriptor plain(real), mock(real);
    edit(mock.arch(sm));
    std::pair<LinkResult, LinkResult> r{link(plain, arch, inputs, extra),
                                        link(mock, arch, inputs, extra)};
    REQUIRE(r.first.outcome == "ok");
    REQUIRE(r.second.outcome == "ok");
    return r;
}

// The same with `flags` added to the arch record.
std::pair<LinkResult, LinkResult> linkWithFlags(const std::string &real, uint32_t sm,
                                                uint32_t flags, std::vector<std::string> extra,
                                                std::vector<fs::path> inputs = {}) {
    return linkEdited(
        real, sm, [flags](culd_arch_info &a) { a.flags |= flags; }, std::move(extra),
        std::move(inputs));
}

std::vector<fs::path> crossFile(const std::string &arch) {
    return {fixture("02-cross-file-call", arch, "main.cubin"),
            fixture("02-cross-file-call", arch, "lib.cubin")};
}
std::vector<fs::path> constants() {
    return {fixture("12-constant", "sm_80", "consts.cubin"),
            fixture("12-constant", "sm_80", "main.cubin")};
}

uint32_t sectionIndex(const LinkResult &r, const std::string &prefix) {
    ElfFile f = r.elf();
    for (const ElfSection &s : f.sections())
        if (std::string(s.name).rfind(prefix, 0) == 0)
            return s.index;
    return 0;
}

// Bytes of every .nv.info* section of an output.
uint64_t infoBytes(const LinkResult &r) {
    uint64_t total = 0;
    ElfFile f = r.elf();
    for (const ElfSection &s : f.sections())
        if (std::string(s.name).rfind(".nv.info", 0) == 0)
            total += s.size;
    return total;
}

} // namespace

TEST_CASE("an unchanged mock links like the real plugin", "[plugin-boundary]") {
    MockDescriptor mock("sm70");
    LinkResult r = link(mock, "sm_80", crossFile("sm_80"));
    REQUIRE(r.outcome == "ok");
    CHECK(r.image.size() > 0);
}

TEST_CASE("arch flags reach the output", "[plugin-boundary]") {
    MockDescriptor base("sm70");
    LinkResult before = link(base, "sm_80", crossFile("sm_80"));
    REQUIRE(before.outcome == "ok");
    CHECK(before.section(".nv.rel.action"));
    CHECK_FALSE(before.section(".nv.compat"));

    SECTION("REL_ACTION") {
        MockDescriptor mock("sm70");
        mock.arch(80).flags &= ~CULD_ARCH_F_REL_ACTION;
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        CHECK_FALSE(after.section(".nv.rel.action"));
    }
    SECTION("COMPAT") {
        MockDescriptor mock("sm70");
        mock.arch(80).flags |= CULD_ARCH_F_COMPAT;
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        CHECK(after.section(".nv.compat"));
    }
    SECTION("TEXT_REGCOUNT") {
        MockDescriptor mock("sm70");
        mock.arch(80).flags &= ~CULD_ARCH_F_TEXT_REGCOUNT;
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        const ElfSection *text = before.section(".text._Z6kernelPi");
        uint32_t infoBefore = text ? text->info : 0;
        if (!text) { // name-independent: the first .text.* section
            ElfFile f = before.elf();
            for (const ElfSection &s : f.sections())
                if (std::string(s.name).rfind(".text.", 0) == 0) {
                    infoBefore = s.info;
                    break;
                }
        }
        uint32_t infoAfter = 0;
        ElfFile f = after.elf();
        for (const ElfSection &s : f.sections())
            if (std::string(s.name).rfind(".text.", 0) == 0) {
                infoAfter = s.info;
                break;
            }
        CHECK((infoBefore >> 24) != 0);
        CHECK((infoAfter >> 24) == 0);
    }
    SECTION("RELOCATABLE_PHENTSIZE") {
        MockDescriptor plain("sm70");
        LinkResult relocBefore = link(plain, "sm_80", crossFile("sm_80"), {"-r"});
        MockDescriptor mock("sm70");
        mock.arch(80).flags &= ~CULD_ARCH_F_RELOCATABLE_PHENTSIZE;
        LinkResult relocAfter = link(mock, "sm_80", crossFile("sm_80"), {"-r"});
        REQUIRE(relocBefore.outcome == "ok");
        REQUIRE(relocAfter.outcome == "ok");
        CHECK(relocBefore.elf().header().phentsize != 0);
        CHECK(relocAfter.elf().header().phentsize == 0);
    }
    SECTION("PRESERVE_RELOCS_PARTIAL") {
        auto [quiet, warned] = linkWithFlags("sm70", 80, CULD_ARCH_F_PRESERVE_RELOCS_PARTIAL,
                                             {"--preserve-relocs"});
        CHECK(warned.warnings == quiet.warnings + 1);
    }
    SECTION("NO_RESOLVED_RELOCS") {
        auto [kept, none] =
            linkWithFlags("sm90", 90, CULD_ARCH_F_NO_RESOLVED_RELOCS, {"--preserve-relocs"});
        CHECK(kept.hasSectionStartingWith(".nv.resolvedrela"));
        CHECK_FALSE(none.hasSectionStartingWith(".nv.resolvedrela"));
    }
    SECTION("MODULE_SHARED_RESERVED and EMPTY_WINDOWS_UNNAMED") {
        // k_dyn uses only dynamic shared memory: its window is the
        // reservation alone; k_dyn_static has a variable of its own.
        const std::vector<fs::path> inputs = {fixture("15-extern-shared", "sm_90", "main.cubin"),
                                              fixture("15-extern-shared", "sm_90", "reduce.cubin")};
        auto [plainLink, flagged] = linkWithFlags(
            "sm90", 90, CULD_ARCH_F_MODULE_SHARED_RESERVED | CULD_ARCH_F_EMPTY_WINDOWS_UNNAMED, {},
            inputs);
        CHECK(plainLink.section(".nv_debug.shared")->size == 0);
        CHECK(flagged.section(".nv_debug.shared")->size == 0x400);
        auto named = [](const LinkResult &r, const std::string &section) {
            ElfFile f = r.elf();
            for (const ElfSymbol &s : f.symbols())
                if (s.type() == elf::STT_SECTION && f.section(s.shndx).name == section)
                    return true;
            return false;
        };
        CHECK(named(plainLink, ".nv.shared._Z5k_dynPfPKfi"));
        CHECK_FALSE(named(flagged, ".nv.shared._Z5k_dynPfPKfi"));
        CHECK(named(flagged, ".nv.shared._Z12k_dyn_staticPi"));
        CHECK_FALSE(named(flagged, ".nv_debug.shared"));
    }
    SECTION("WIDE_COLOURED_SHARED and WIDE_EMPTY_WINDOWS") {
        // A 32-aligned array kfirst and ksecond reach (coloured), an extern
        // array kdyn uses, and kplain, which has no shared memory.
        const std::vector<fs::path> inputs = {fixture(
            "188-extern-shared-beside-coloured-32-aligned-shared", "sm_90", "kernels.cubin")};
        const uint32_t wide = CULD_ARCH_F_WIDE_COLOURED_SHARED | CULD_ARCH_F_WIDE_EMPTY_WINDOWS;
        MockDescriptor unmodelled("sm90");
        unmodelled.arch(90).flags &= ~wide;
        LinkResult refused = link(unmodelled, "sm_90", inputs);
        CHECK_THAT(refused.outcome, Catch::Contains("is not supported for this target"));
        auto [everyKernel, usersOnly] = linkEdited(
            "sm90", 90, [](culd_arch_info &a) { a.flags &= ~CULD_ARCH_F_WIDE_EMPTY_WINDOWS; }, {},
            inputs);
        CHECK_FALSE(everyKernel.section(".nv_debug.shared"));
        CHECK_FALSE(usersOnly.section(".nv_debug.shared"));
        const ElfSection *plainWindow = everyKernel.section(".nv.shared._Z6kplainPi");
        REQUIRE(plainWindow);
        CHECK(plainWindow->addralign == 32);
        CHECK_FALSE(usersOnly.section(".nv.shared._Z6kplainPi"));
        CHECK_FALSE(usersOnly.section(".nv.shared._Z4kdynPi"));
    }
    SECTION("LINKER_SYMBOLS_CUDA_OBJECT and LATE_SECTION_SYMBOLS_LAST") {
        MockDescriptor plain("sm90");
        LinkResult sorted = link(plain, "sm_90", crossFile("sm_90"));
        MockDescriptor mock("sm90");
        mock.arch(90).flags |=
            CULD_ARCH_F_LINKER_SYMBOLS_CUDA_OBJECT | CULD_ARCH_F_LATE_SECTION_SYMBOLS_LAST;
        LinkResult late = link(mock, "sm_90", crossFile("sm_90"));
        REQUIRE(sorted.outcome == "ok");
        REQUIRE(late.outcome == "ok");
        auto symbolType = [](const ElfFile &f, std::string_view name) {
            for (const ElfSymbol &s : f.symbols())
                if (s.name == name)
                    return s.type();
            return uint8_t(0xff);
        };
        ElfFile a = sorted.elf(), b = late.elf();
        CHECK(symbolType(a, ".nv.reservedSmem.offset0") == elf::STT_OBJECT);
        CHECK(symbolType(b, ".nv.reservedSmem.offset0") == elf::STT_CUDA_OBJECT);
        // The constant bank's section symbol moves after the globals; sh_info
        // then counts every symbol.
        // (section() keeps only the last image it parsed: read each at once.)
        const ElfSection *symtabA = sorted.section(".symtab");
        REQUIRE(symtabA);
        const uint32_t infoA = symtabA->info;
        const ElfSection *symtabB = late.section(".symtab");
        REQUIRE(symtabB);
        const uint32_t infoB = symtabB->info;
        CHECK(infoA < a.symbols().size());
        CHECK(infoB == b.symbols().size());
        CHECK(b.symbols().back().type() == elf::STT_SECTION);
        CHECK(std::string(b.section(b.symbols().back().shndx).name)
                  .rfind(".nv.constant0.", 0) == 0);
    }
    SECTION("FRAME_BY_ENTRY") {
        // f_unused_top (top.cu) is removed as dead: concatenated, its frame
        // entry stays; linked entry by entry, its CIE and FDE go, and every
        // FDE points at the CIE before it.
        std::vector<fs::path> in;
        for (const char *f : {"kernels.cubin", "leaf.cubin", "mid.cubin", "top.cubin"})
            in.push_back(fixture("32-large-callgraph", "sm_90", f));
        auto [whole, byEntry] = linkWithFlags("sm90", 90, CULD_ARCH_F_FRAME_BY_ENTRY, {}, in);
        auto entriesOf = [](const LinkResult &r) {
            const ElfSection *frame = r.section(".debug_frame");
            REQUIRE(frame);
            std::vector<uint8_t> bytes(frame->data.begin(), frame->data.end());
            std::vector<FrameEntry> entries =
                parseFrameEntries(ByteView{bytes.data(), bytes.size()}, "out");
            return std::make_pair(bytes, entries);
        };
        auto [wholeBytes, wholeEntries] = entriesOf(whole);
        auto [bytes, entries] = entriesOf(byEntry);
        CHECK(entries.size() + 2 == wholeEntries.size());
        uint64_t cie = UINT64_MAX;
        for (const FrameEntry &e : entries) {
            if (e.isCie) {
                cie = e.begin;
                continue;
            }
            uint64_t pointer = 0;
            std::memcpy(&pointer, bytes.data() + e.ciePointerField, 8);
            CHECK(pointer == cie);
        }
    }
    SECTION("CONST0_AFTER_DATA") {
        std::vector<fs::path> in = {fixture("14-static-shared", "sm_80", "main.cubin"),
                                    fixture("14-static-shared", "sm_80", "sum.cubin")};
        auto [codeFirst, dataFirst] =
            linkWithFlags("sm70", 80, CULD_ARCH_F_CONST0_AFTER_DATA, {}, in);
        uint32_t shared = sectionIndex(codeFirst, ".nv.shared.");
        REQUIRE(shared != 0);
        CHECK(sectionIndex(codeFirst, ".nv.constant0.") < sectionIndex(codeFirst, ".nv.shared."));
        CHECK(sectionIndex(dataFirst, ".nv.constant0.") > sectionIndex(dataFirst, ".nv.shared."));
    }
}

TEST_CASE("arch record values reach the output", "[plugin-boundary]") {
    MockDescriptor base("sm70");
    LinkResult before = link(base, "sm_80", crossFile("sm_80"));
    REQUIRE(before.outcome == "ok");

    SECTION("elf_flags_low") {
        MockDescriptor mock("sm70");
        mock.arch(80).elf_flags_low = 0x01;
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        CHECK((before.elf().header().flags & 0xFF) == 0x04);
        CHECK((after.elf().header().flags & 0xFF) == 0x01);
    }
    SECTION("elf_abi") {
        MockDescriptor mock("sm70");
        mock.arch(80).elf_abi = CULD_ELF_ABI_V7;
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        CHECK(after.elf().header().flags == ((80u << 16) | 0x04 | 80u));
    }
    SECTION("phdr_layout") {
        MockDescriptor mock("sm70");
        mock.arch(80).phdr_layout = CULD_PHDR_NONE;
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        CHECK(before.elf().header().phnum > 0);
        CHECK(after.elf().header().phnum == 0);
    }
    SECTION("phdr_layout SPLIT") {
        // PHDR and its LOAD (both R), then the banks before the code (R),
        // code (R+X), data (R+W), the banks after the data (R): where the
        // parameter banks follow the data (CONST0_AFTER_DATA), they close.
        std::vector<fs::path> in = {fixture("10-device-globals", "sm_90", "globals.cubin")};
        using namespace elf;
        auto segments = [&](uint32_t flags) {
            MockDescriptor mock("sm90");
            mock.arch(90).phdr_layout = CULD_PHDR_SPLIT;
            mock.arch(90).flags |= flags;
            LinkResult after = link(mock, "sm_90", in);
            REQUIRE(after.outcome == "ok");
            ElfFile f = after.elf();
            std::vector<std::pair<uint32_t, uint32_t>> seen;
            for (const ElfProgramHeader &p : f.programHeaders())
                seen.push_back({p.type, p.flags});
            CHECK(f.programHeaders()[0].offset == f.programHeaders()[1].offset);
            return seen;
        };
        using Segments = std::vector<std::pair<uint32_t, uint32_t>>;
        CHECK(segments(0) == Segments{{PT_PHDR, PF_R},
                                      {PT_LOAD, PF_R},
                                      {PT_LOAD, PF_R},
                                      {PT_LOAD, PF_R | PF_X},
                                      {PT_LOAD, PF_R | PF_W}});
        CHECK(segments(CULD_ARCH_F_CONST0_AFTER_DATA) == Segments{{PT_PHDR, PF_R},
                                                                  {PT_LOAD, PF_R},
                                                                  {PT_LOAD, PF_R | PF_X},
                                                                  {PT_LOAD, PF_R | PF_W},
                                                                  {PT_LOAD, PF_R}});
    }
    SECTION("info_tail_codes") {
        // The tail codes leave the reversal and close the list in input
        // order (sm_100+: CBANK_PARAM_SIZE, PARAM_CBANK, SW_WAR).
        auto kernelInfoCodes = [](const LinkResult &r) {
            std::vector<uint8_t> codes;
            ElfFile f = r.elf();
            for (const ElfSection &s : f.sections())
                if (std::string(s.name) == ".nv.info._Z5applyPfPKfi")
                    for (const NvInfoRecord &rec :
                         parseNvInfo(s.data, {"out", std::string(s.name)}))
                        codes.push_back(rec.code);
            return codes;
        };
        MockDescriptor plain("sm90");
        LinkResult reversed = link(plain, "sm_90", crossFile("sm_90"));
        static const uint32_t tail[] = {EIATTR_CBANK_PARAM_SIZE, EIATTR_PARAM_CBANK,
                                        EIATTR_SW_WAR};
        MockDescriptor mock("sm90");
        mock.arch(90).num_info_tail_codes = 3;
        mock.arch(90).info_tail_codes = tail;
        LinkResult tailed = link(mock, "sm_90", crossFile("sm_90"));
        REQUIRE(reversed.outcome == "ok");
        REQUIRE(tailed.outcome == "ok");
        std::vector<uint8_t> a = kernelInfoCodes(reversed), b = kernelInfoCodes(tailed);
        REQUIRE(a.size() >= 3);
        REQUIRE(b.size() == a.size());
        CHECK(a.front() == EIATTR_SW_WAR);
        CHECK(std::vector<uint8_t>(b.end() - 3, b.end()) ==
              std::vector<uint8_t>{EIATTR_CBANK_PARAM_SIZE, EIATTR_PARAM_CBANK, EIATTR_SW_WAR});
        CHECK(std::vector<uint8_t>(b.begin(), b.end() - 3) ==
              std::vector<uint8_t>(a.begin() + 3, a.end()));
    }
    SECTION("reloc_style") {
        MockDescriptor mock("sm70");
        mock.arch(80).reloc_style = CULD_RELOC_STYLE_RELA_ONLY;
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        CHECK(before.hasSectionStartingWith(".rel."));
        CHECK_FALSE(after.hasSectionStartingWith(".rel."));
    }
    SECTION("compatible_inputs") {
        MockDescriptor plain("sm70");
        CHECK(link(plain, "sm_86", crossFile("sm_80")).outcome == "ok");
        MockDescriptor mock("sm70");
        mock.arch(86).num_compatible = 0;
        CHECK(link(mock, "sm_86", crossFile("sm_80")).outcome.find("arch does not match") !=
              std::string::npos);
    }
    SECTION("reserved_smem") {
        auto [hopper, none] =
            linkEdited("sm90", 90, [](culd_arch_info &a) { a.reserved_smem = 0; });
        CHECK(hopper.image != none.image);
    }
    SECTION("reserved_smem_offset0") {
        // The linker's own value for .nv.reservedSmem.offset0 (sm_100+ 0x40),
        // whatever the inputs say (sm_90 inputs: 0).
        auto offset0 = [](const LinkResult &r) {
            ElfFile f = r.elf();
            for (const ElfSymbol &s : f.symbols())
                if (s.name == ".nv.reservedSmem.offset0")
                    return s.value;
            return UINT64_MAX;
        };
        auto [hopper, moved] =
            linkEdited("sm90", 90, [](culd_arch_info &a) { a.reserved_smem_offset0 = 0x40; });
        CHECK(offset0(hopper) == 0);
        CHECK(offset0(moved) == 0x40);
    }
    SECTION("optimizer_cbank") {
        // Jump tables (88-virtual-functions): the plugin's bank number pairs
        // .nv.merc.nv.constant.optimizer.<f> with .nv.constant2.<f>, and
        // the link goes through; without the number it stops at the
        // section that has no twin.
        std::vector<fs::path> in = {fixture("88-virtual-functions", "sm_100", "a.cubin"),
                                    fixture("88-virtual-functions", "sm_100", "b.cubin")};
        MockDescriptor plain("sm100-mercury"), mock("sm100-mercury");
        mock.arch(100).optimizer_cbank = 0;
        std::string paired = link(plain, "sm_100", in).outcome;
        std::string unpaired = link(mock, "sm_100", in).outcome;
        CHECK(paired == "ok");
        CHECK(unpaired.find("no SASS section it shadows") != std::string::npos);
    }
    SECTION("max_cbank_size") {
        MockDescriptor mock("sm70");
        mock.arch(80).max_cbank_size = 4;
        CHECK(link(mock, "sm_80", constants()).outcome != "ok");
    }
    SECTION("user_cbank") {
        // Which bank over the limit is the __constant__ one decides the
        // message (nvlink's for the user bank, culd's own for the others).
        MockDescriptor mock("sm70");
        mock.arch(80).max_cbank_size = 4;
        LinkResult bank3 = link(mock, "sm_80", constants());
        mock.arch(80).user_cbank = 2;
        LinkResult bank2 = link(mock, "sm_80", constants());
        CHECK(bank3.diagnostics.find("File uses too much global constant data") !=
              std::string::npos);
        CHECK(bank2.diagnostics.find("File uses too much global constant data") ==
              std::string::npos);
        CHECK(bank2.diagnostics.find("uses too much constant data") != std::string::npos);
    }
}

TEST_CASE("relocation rows are the plugin's", "[plugin-boundary]") {
    SECTION("min_arch_class above the target's class is refused") {
        MockDescriptor mock("sm70");
        for (culd_reloc_desc &r : mock.relocs)
            r.min_arch_class = 6;
        std::string outcome = link(mock, "sm_80", crossFile("sm_80")).outcome;
        CHECK(outcome.find("is not supported on sm_80") != std::string::npos);
        CHECK(outcome.find("R_CUDA_") != std::string::npos); // the row's name
    }
    SECTION("arch_class admits the row") {
        MockDescriptor mock("sm70");
        for (culd_reloc_desc &r : mock.relocs)
            r.min_arch_class = 6;
        mock.arch(80).arch_class = 6;
        CHECK(link(mock, "sm_80", crossFile("sm_80")).outcome == "ok");
    }
    SECTION("resolver and bit actions") {
        MockDescriptor plain("sm70");
        LinkResult before = link(plain, "sm_80", constants());
        REQUIRE(before.outcome == "ok");
        MockDescriptor mock("sm70");
        for (culd_reloc_desc &r : mock.relocs)
            if (r.resolver == CULD_RESOLVE_LINKER || r.resolver == CULD_RESOLVE_EITHER)
                r.resolver = CULD_RESOLVE_DRIVER;
        LinkResult kept = link(mock, "sm_80", constants());
        REQUIRE(kept.outcome == "ok");
        CHECK(kept.image != before.image);
    }
    SECTION("UNIFIED rows are kept as their plain_type") {
        std::vector<fs::path> in;
        for (const auto &e : fs::directory_iterator(fixturesDir() / "05-func-pointer" / "sm_90"))
            if (e.path().extension() == ".cubin" && e.path().filename() != "nvlink.cubin")
                in.push_back(e.path());
        std::sort(in.begin(), in.end());
        MockDescriptor plain("sm90");
        LinkResult before = link(plain, "sm_90", in);
        REQUIRE(before.outcome == "ok");
        MockDescriptor mock("sm90");
        for (culd_reloc_desc &r : mock.relocs)
            if (r.flags & CULD_RELOC_F_UNIFIED)
                r.plain_type = 1; // R_CUDA_32 for every one
        LinkResult retyped = link(mock, "sm_90", in);
        REQUIRE(retyped.outcome == "ok");
        CHECK(retyped.image != before.image);
        MockDescriptor unflagged("sm90");
        for (culd_reloc_desc &r : unflagged.relocs)
            r.flags &= ~CULD_RELOC_F_UNIFIED;
        LinkResult asIs = link(unflagged, "sm_90", in);
        REQUIRE(asIs.outcome == "ok");
        CHECK(asIs.image != before.image);
    }
    SECTION("a row flagged HOOK goes to apply_relocations") {
        static int calls;
        calls = 0;
        MockDescriptor mock("sm70");
        for (culd_reloc_desc &r : mock.relocs)
            if (r.resolver == CULD_RESOLVE_LINKER || r.resolver == CULD_RESOLVE_EITHER)
                r.flags |= CULD_RELOC_F_HOOK;
        // What the hook saw of each section: its header fields must be the
        // output section's, not zeroes.
        static std::map<std::string, std::pair<uint32_t, uint64_t>> seen;
        seen.clear();
        mock.desc.apply_relocations = [](const culd_host *, uint32_t, culd_section_bytes *s,
                                         culd_reloc_work *w, size_t n) -> int32_t {
            calls += static_cast<int>(n);
            seen[s->name] = {s->sh_type, s->sh_flags};
            for (size_t i = 0; i < n; ++i)
                w[i].status = CULD_RELOC_APPLIED;
            return 0;
        };
        LinkResult hooked = link(mock, "sm_80", constants());
        REQUIRE(hooked.outcome == "ok");
        CHECK(calls > 0);
        bool sawCode = false;
        for (const auto &[name, header] : seen) {
            const ElfSection *out = hooked.section(name);
            REQUIRE(out != nullptr);
            CHECK(header.first == out->type);
            CHECK(header.second == out->flags);
            sawCode |= (header.second & elf::SHF_EXECINSTR) != 0;
        }
        CHECK(sawCode);
    }
}

TEST_CASE("hooks are called", "[plugin-boundary]") {
    SECTION("eiattr_policy: DROP, WARN and ERROR") {
        MockDescriptor plain("sm70");
        LinkResult before = link(plain, "sm_80", crossFile("sm_80"));
        REQUIRE(before.outcome == "ok");
        MockDescriptor drop("sm70");
        drop.desc.eiattr_policy = [](uint32_t, uint32_t code) -> uint32_t {
            return code == EIATTR_EXIT_INSTR_OFFSETS ? CULD_EIATTR_DROP : CULD_EIATTR_KEEP;
        };
        LinkResult dropped = link(drop, "sm_80", crossFile("sm_80"));
        REQUIRE(dropped.outcome == "ok");
        CHECK(infoBytes(dropped) < infoBytes(before));

        MockDescriptor warn("sm70");
        warn.desc.eiattr_policy = [](uint32_t, uint32_t) -> uint32_t { return CULD_EIATTR_WARN; };
        LinkResult warned = link(warn, "sm_80", crossFile("sm_80"));
        REQUIRE(warned.outcome == "ok");
        CHECK(warned.warnings > before.warnings);
        CHECK(warned.image == before.image);

        MockDescriptor error("sm70");
        error.desc.eiattr_policy = [](uint32_t, uint32_t) -> uint32_t { return CULD_EIATTR_ERROR; };
        CHECK(link(error, "sm_80", crossFile("sm_80")).outcome.find("not supported on sm_80") !=
              std::string::npos);
    }
    SECTION("compat_policy") {
        MockDescriptor plain("sm90");
        LinkResult before = link(plain, "sm_90", crossFile("sm_90"));
        REQUIRE(before.outcome == "ok");
        MockDescriptor mock("sm90");
        mock.desc.compat_policy = [](uint32_t, uint32_t code) -> uint32_t {
            return code == EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET ? CULD_EIATTR_KEEP
                                                                 : CULD_EIATTR_DROP;
        };
        LinkResult after = link(mock, "sm_90", crossFile("sm_90"));
        REQUIRE(after.outcome == "ok");
        const ElfSection *b = before.section(".nv.compat");
        uint64_t sizeBefore = b ? b->size : 0;
        const ElfSection *a = after.section(".nv.compat");
        REQUIRE(a);
        CHECK(a->size < sizeBefore);
    }
    SECTION("classify_mercury_section, with and without the MERCURY flag") {
        MockDescriptor mock("sm70");
        mock.desc.classify_mercury_section = [](const char *name, uint32_t, uint64_t) -> uint32_t {
            return std::strcmp(name, ".nv.callgraph") == 0 ? CULD_MERC_DATA : CULD_MERC_NONE;
        };
        CHECK(link(mock, "sm_80", crossFile("sm_80")).outcome.find("is Mercury code") !=
              std::string::npos);
        // On a Mercury target the section is the plugin's shadow data,
        // which the core does not link yet: refused by name, not dropped.
        mock.arch(80).flags |= CULD_ARCH_F_MERCURY;
        CHECK(link(mock, "sm_80", crossFile("sm_80")).outcome.find(
                  "section '.nv.callgraph': linking the Mercury shadow set") != std::string::npos);
    }
    SECTION("mercury_twin pairs the Mercury set with its SASS twins") {
        MockDescriptor mock("sm100-mercury");
        LinkResult paired = link(mock, "sm_100", crossFile("sm_100"));
        REQUIRE(paired.outcome == "ok");
        CHECK(paired.section(".nv.capmerc.text._Z5applyPfPKfi"));
        CHECK(paired.section(".nv.merc.nv.info._Z5applyPfPKfi"));
        CHECK(paired.section(".nv.merc.symtab"));
        // Without the hook (an ABI 2.1 plugin) the core cannot pair them:
        // refused, naming the section, rather than written without them.
        mock.desc.mercury_twin = nullptr;
        CHECK(link(mock, "sm_100", crossFile("sm_100")).outcome.find(
                  "by a plugin that does not pair them") != std::string::npos);
        // A twin the input does not have: refused, naming the section.
        mock.desc.mercury_twin = [](const char *name) -> uint32_t {
            return std::strncmp(name, ".nv.capmerc.", 12) == 0 ? 1 : 0;
        };
        CHECK(link(mock, "sm_100", crossFile("sm_100")).outcome.find(
                  "no SASS section it shadows") != std::string::npos);
    }
    SECTION("capsule_field says where a jump table's offset goes in a capsule") {
        // 88-virtual-functions has a switch: nvlink writes each table's
        // offset into the capsule's table load. The core asks the plugin
        // where, giving the SASS twin's instruction; it writes the value
        // there and nowhere else.
        std::vector<fs::path> in = {fixture("88-virtual-functions", "sm_100", "a.cubin"),
                                    fixture("88-virtual-functions", "sm_100", "b.cubin")};
        static culd_capsule_field_fn real;
        static std::vector<uint64_t> twinOffsets;
        real = realPlugin("sm100-mercury").descriptor().capsule_field;
        REQUIRE(real);
        MockDescriptor plain("sm100-mercury"), mock("sm100-mercury");
        LinkResult before = link(plain, "sm_100", in);
        REQUIRE(before.outcome == "ok");
        mock.desc.capsule_field = [](const culd_host *host, uint32_t sm, const uint8_t *capsule,
                                     uint64_t size, uint32_t type, uint64_t twin,
                                     uint64_t *field) -> int32_t {
            twinOffsets.push_back(twin);
            int32_t rc = real(host, sm, capsule, size, type, twin, field);
            if (*field != CULD_CAPSULE_NO_FIELD)
                *field += 2; // the high half of the field: the value moves
            return rc;
        };
        LinkResult moved = link(mock, "sm_100", in);
        REQUIRE(moved.outcome == "ok");
        CHECK(!twinOffsets.empty());
        for (uint64_t twin : twinOffsets)
            CHECK(twin % 16 == 0);
        CHECK(moved.image.size() == before.image.size());
        CHECK(moved.image != before.image);
        // CULD_CAPSULE_NO_FIELD (ABI 2.9): the capsule holds none, nothing
        // is written there.
        mock.desc.capsule_field = [](const culd_host *, uint32_t, const uint8_t *, uint64_t,
                                     uint32_t, uint64_t, uint64_t *field) -> int32_t {
            *field = CULD_CAPSULE_NO_FIELD;
            return 0;
        };
        LinkResult none = link(mock, "sm_100", in);
        REQUIRE(none.outcome == "ok");
        CHECK(none.image.size() == before.image.size());
        CHECK(none.image != before.image);
        CHECK(none.image != moved.image);
        // A plugin that cannot place it stops the link, naming the
        // relocation and giving its reason; one without the hook too.
        mock.desc.capsule_field = [](const culd_host *host, uint32_t, const uint8_t *, uint64_t,
                                     uint32_t, uint64_t, uint64_t *) -> int32_t {
            host->report(host->opaque, CULD_LOG_ERROR, "record not decoded");
            return -1;
        };
        std::string refused = link(mock, "sm_100", in).outcome;
        CHECK(refused.find("R_MERCURY_ABS16") != std::string::npos);
        CHECK(refused.find("record not decoded") != std::string::npos);
        mock.desc.capsule_field = nullptr;
        CHECK(link(mock, "sm_100", in).outcome.find("cannot place linker values in capsules") !=
              std::string::npos);
        // Outside the capsule: refused, not written past its end.
        mock.desc.capsule_field = [](const culd_host *, uint32_t, const uint8_t *, uint64_t size,
                                     uint32_t, uint64_t, uint64_t *field) -> int32_t {
            *field = size - 1;
            return 0;
        };
        CHECK(link(mock, "sm_100", in).outcome.find("outside the capsule") != std::string::npos);
    }
    SECTION("fastpath_clears: the compat mask follows the code kept") {
        // a.cubin is plain (0x9), b.cubin 0x1 for a device function nobody
        // calls, c.cubin has no code (0): nvlink writes 0x9. The core asks
        // the plugin which functions clear the arch's code bits.
        std::vector<fs::path> in;
        for (const char *f : {"a.cubin", "b.cubin", "c.cubin"})
            in.push_back(fixture("104-fastpath-kept-code", "sm_100", f));
        MockDescriptor mock("sm100-mercury");
        REQUIRE(mock.arch(100).fastpath_code_bits == 0x8);
        LinkResult kept = link(mock, "sm_100", in);
        REQUIRE(kept.outcome == "ok");
        CHECK(fastpathMask(kept) == 0x9);
        // Answers that do not explain an input's own mask: refused, naming
        // the input, whichever way they are wrong.
        mock.desc.fastpath_clears = [](uint32_t, const uint8_t *, uint64_t) -> uint32_t {
            return 0;
        };
        std::string none = link(mock, "sm_100", in).outcome;
        CHECK(none.find("b.cubin'") != std::string::npos);
        CHECK(none.find("not what its code makes of it") != std::string::npos);
        mock.desc.fastpath_clears = [](uint32_t, const uint8_t *, uint64_t) -> uint32_t {
            return 0x8;
        };
        CHECK(link(mock, "sm_100", in).outcome.find("a.cubin'") != std::string::npos);
        mock.desc.fastpath_clears = [](uint32_t, const uint8_t *, uint64_t) -> uint32_t {
            return 0x10; // not one of the arch's bits
        };
        CHECK(link(mock, "sm_100", in).outcome.find("not what its code") != std::string::npos);
        mock.desc.fastpath_clears = nullptr;
        CHECK(link(mock, "sm_100", in).outcome.find("cannot tell which code clears them") !=
              std::string::npos);
        // Without code-dependent bits the kept files' masks are ANDed (the
        // file without code still counts for nothing).
        mock.arch(100).fastpath_code_bits = 0;
        LinkResult anded = link(mock, "sm_100", in);
        REQUIRE(anded.outcome == "ok");
        CHECK(fastpathMask(anded) == 0x1);
    }
    SECTION("rewrite_code: what addresses the code moves with it") {
        // A hook that removes every kernel's second instruction and marks
        // its capsule: the core must link the new bytes, move the EXIT
        // offsets, the symbol's size and the frame entry's range, and
        // write the capsule it was given.
        std::vector<fs::path> in = {fixture("01-single-kernel", "sm_100", "k.cubin")};
        MockDescriptor plain("sm100-mercury");
        plain.desc.rewrite_code = nullptr;
        LinkResult before = link(plain, "sm_100", in);
        REQUIRE(before.outcome == "ok");
        static unsigned calls;
        calls = 0;
        MockDescriptor mock("sm100-mercury");
        mock.desc.rewrite_code = [](const culd_host *, uint32_t, const uint8_t *code,
                                    uint64_t size, const uint8_t *shadow, uint64_t shadowSize,
                                    uint32_t flags, culd_buffer *outCode, culd_buffer *outRemoved,
                                    culd_buffer *outShadow) -> int32_t {
            ++calls;
            if (!(flags & CULD_CODE_F_ENTRY) || size < 32)
                return 1;
            uint8_t *p = outCode->grow(outCode->opaque, size - 16);
            std::memcpy(p, code, 16);
            std::memcpy(p + 16, code + 32, size - 32);
            const uint64_t removed[2] = {16, 32};
            std::memcpy(outRemoved->grow(outRemoved->opaque, 16), removed, 16);
            uint8_t *q = outShadow->grow(outShadow->opaque, shadowSize);
            std::memcpy(q, shadow, shadowSize);
            q[shadowSize - 1] ^= 0xff;
            return 0;
        };
        LinkResult after = link(mock, "sm_100", in);
        REQUIRE(after.outcome == "ok");
        CHECK(calls == 1);
        // A section's bytes (LinkResult::section keeps one parse alive).
        auto bytesOf = [](const LinkResult &r, const std::string &name) {
            const ElfSection *s = r.section(name);
            REQUIRE(s);
            return std::vector<uint8_t>(s->data.begin(), s->data.end());
        };
        const std::string text = ".text._Z5saxpyifPKfPf";
        std::vector<uint8_t> oldCode = bytesOf(before, text);
        std::vector<uint8_t> expected(oldCode.begin(), oldCode.begin() + 16);
        expected.insert(expected.end(), oldCode.begin() + 32, oldCode.end());
        CHECK(bytesOf(after, text) == expected);
        // The kernel's size, its EXIT offsets and its frame entry's range.
        auto kernelSize = [](const LinkResult &r) {
            ElfFile f = r.elf();
            for (const ElfSymbol &sym : f.symbols())
                if (sym.name == "_Z5saxpyifPKfPf")
                    return sym.size;
            return uint64_t(0);
        };
        CHECK(kernelSize(after) == kernelSize(before) - 16);
        auto exits = [](const LinkResult &r) {
            std::vector<uint32_t> out;
            const ElfSection *info = r.section(".nv.info._Z5saxpyifPKfPf");
            for (const NvInfoRecord &rec : parseNvInfo(info->data, {"out", "info"}))
                if (rec.code == EIATTR_EXIT_INSTR_OFFSETS)
                    for (uint32_t i = 0; i < rec.wordCount(); ++i)
                        out.push_back(rec.word(i));
            return out;
        };
        std::vector<uint32_t> oldExits = exits(before), newExits = exits(after);
        REQUIRE(oldExits.size() == newExits.size());
        for (size_t i = 0; i < oldExits.size(); ++i)
            CHECK(newExits[i] == oldExits[i] - 16);
        auto frameRange = [](const LinkResult &r) {
            const ElfSection *frame = r.section(".debug_frame");
            for (const FrameEntry &e : parseFrameEntries(frame->data, "frame"))
                if (!e.isCie && e.end > e.locationField + 16) {
                    uint64_t range;
                    std::memcpy(&range, frame->data.data + e.locationField + 8, 8);
                    return range;
                }
            return uint64_t(0);
        };
        CHECK(frameRange(after) == frameRange(before) - 16);
        // A record of (offset, datum) pairs moves its offsets only: the
        // EXIT record (0x70, 0x120) relabelled UNUSED_LOAD_BYTE_OFFSET,
        // whose second word is a byte mask (nvlink keeps 0xfff0 there).
        TempDir dir;
        std::vector<uint8_t> relabelled = readFile(in[0]);
        const std::string info = ".nv.info._Z5saxpyifPKfPf";
        {
            ElfFile f = ElfFile::parse("k", ByteView{relabelled.data(), relabelled.size()});
            for (const ElfSection &sec : f.sections())
                if (sec.name == info)
                    for (const NvInfoRecord &rec : parseNvInfo(sec.data, {"k", "info"}))
                        if (rec.code == EIATTR_EXIT_INSTR_OFFSETS)
                            relabelled[sec.offset + rec.offset + 1] = EIATTR_UNUSED_LOAD_BYTE_OFFSET;
        }
        writeFile(dir.path() / "k.cubin", relabelled);
        LinkResult pairs = link(mock, "sm_100", {dir.path() / "k.cubin"});
        REQUIRE(pairs.outcome == "ok");
        std::vector<uint32_t> words;
        for (const NvInfoRecord &rec : parseNvInfo(pairs.section(info)->data, {"out", "info"}))
            if (rec.code == EIATTR_UNUSED_LOAD_BYTE_OFFSET)
                for (uint32_t i = 0; i < rec.wordCount(); ++i)
                    words.push_back(rec.word(i));
        CHECK(words == std::vector<uint32_t>{oldExits[0] - 16, oldExits[1]});
        // The capsule is the hook's; its metadata stays.
        const std::string capsule = ".nv.capmerc.text._Z5saxpyifPKfPf";
        std::vector<uint8_t> marked = bytesOf(before, capsule);
        marked.back() ^= 0xff;
        CHECK(bytesOf(after, capsule) == marked);
        // A relocatable link keeps the code as compiled.
        calls = 0;
        REQUIRE(link(mock, "sm_100", in, {"-r"}).outcome == "ok");
        CHECK(calls == 0);
        // Ranges that do not describe the code are refused.
        mock.desc.rewrite_code = [](const culd_host *, uint32_t, const uint8_t *code,
                                    uint64_t size, const uint8_t *, uint64_t, uint32_t,
                                    culd_buffer *outCode, culd_buffer *outRemoved,
                                    culd_buffer *) -> int32_t {
            std::memcpy(outCode->grow(outCode->opaque, size), code, size);
            const uint64_t removed[2] = {32, size + 16};
            std::memcpy(outRemoved->grow(outRemoved->opaque, 16), removed, 16);
            return 0;
        };
        CHECK(link(mock, "sm_100", in).outcome.find("outside the function") != std::string::npos);
        // The plugin's reason reaches the user, with the function's name.
        mock.desc.rewrite_code = [](const culd_host *host, uint32_t, const uint8_t *, uint64_t,
                                    const uint8_t *, uint64_t, uint32_t, culd_buffer *,
                                    culd_buffer *, culd_buffer *) -> int32_t {
            host->report(host->opaque, CULD_LOG_ERROR, "no such luck");
            return -1;
        };
        std::string refused = link(mock, "sm_100", in).outcome;
        CHECK(refused.find("saxpy(int, float, float const *, float *)") != std::string::npos);
        CHECK(refused.find("no such luck") != std::string::npos);
    }
    SECTION("finalize replaces the image, keeps it, or fails the link") {
        MockDescriptor plain("sm70");
        LinkResult before = link(plain, "sm_80", crossFile("sm_80"));
        MockDescriptor mock("sm70");
        mock.desc.finalize = [](const culd_host *, uint32_t, const uint8_t *image, uint64_t size,
                                culd_buffer *out) -> int32_t {
            uint8_t *p = out->grow(out->opaque, size + 4);
            std::memcpy(p, image, size);
            std::memcpy(p + size, "FIN!", 4);
            return 0;
        };
        LinkResult after = link(mock, "sm_80", crossFile("sm_80"));
        REQUIRE(after.outcome == "ok");
        REQUIRE(after.image.size() == before.image.size() + 4);
        CHECK(std::memcmp(after.image.data() + before.image.size(), "FIN!", 4) == 0);

        mock.desc.finalize = [](const culd_host *, uint32_t, const uint8_t *, uint64_t,
                                culd_buffer *) -> int32_t { return 1; };
        CHECK(link(mock, "sm_80", crossFile("sm_80")).image == before.image);

        mock.desc.finalize = [](const culd_host *host, uint32_t, const uint8_t *, uint64_t,
                                culd_buffer *) -> int32_t {
            host->report(host->opaque, CULD_LOG_ERROR, "no capsule");
            return -1;
        };
        CHECK(link(mock, "sm_80", crossFile("sm_80")).outcome ==
              "plugin 'mock' failed to finalize the output: no capsule");
    }
    SECTION("finalize learns whether the link is -g") {
        static uint32_t flagsSeen;
        MockDescriptor mock("sm70");
        mock.desc.finalize = [](const culd_host *host, uint32_t, const uint8_t *, uint64_t,
                                culd_buffer *) -> int32_t {
            flagsSeen = host->link_flags;
            return 1;
        };
        flagsSeen = ~0u;
        // Release code (no .debug_info) the output keeps.
        REQUIRE(link(mock, "sm_80", crossFile("sm_80")).outcome == "ok");
        CHECK(flagsSeen == CULD_LINK_F_RELEASE_CODE);
        REQUIRE(link(mock, "sm_80", crossFile("sm_80"), {"-g"}).outcome == "ok");
        CHECK(flagsSeen == (CULD_LINK_F_DEBUG | CULD_LINK_F_RELEASE_CODE));
        // -G inputs only (they carry .debug_info).
        REQUIRE(link(mock, "sm_80", {fixture("63-debug-link", "sm_80", "main.cubin"),
                                     fixture("63-debug-link", "sm_80", "lib.cubin")},
                     {"-g"})
                    .outcome == "ok");
        CHECK(flagsSeen == (CULD_LINK_F_DEBUG | CULD_LINK_F_DEBUG_INPUTS));
        // Both.
        REQUIRE(link(mock, "sm_80", {fixture("63-debug-link", "sm_80", "main.cubin"),
                                     fixture("63-debug-link", "sm_80", "lib.cubin"),
                                     fixture("01-single-kernel", "sm_80", "k.cubin")},
                     {"-g"})
                    .outcome == "ok");
        CHECK(flagsSeen ==
              (CULD_LINK_F_DEBUG | CULD_LINK_F_DEBUG_INPUTS | CULD_LINK_F_RELEASE_CODE));
    }
}

TEST_CASE("code_tail: a replaced copy's frame rows follow the winner's code end",
          "[plugin-boundary]") {
    // 119-weak-replaced-leaf-with-frame: a weak pick() with a stack frame,
    // replaced by a leaf one. The copy's Mercury rows (0x30, 0x970) lie
    // inside the winner's 32-byte return (0x20-0x40) and past its end:
    // nvlink's entry is the winner's program, which the core writes only
    // when the plugin says where the winner's code ends.
    const std::vector<fs::path> in = {
        fixture("119-weak-replaced-leaf-with-frame", "sm_100", "frame.cubin"),
        fixture("119-weak-replaced-leaf-with-frame", "sm_100", "small.cubin")};
    std::vector<uint8_t> nvlinkImage =
        readFile(fixture("119-weak-replaced-leaf-with-frame", "sm_100", "nvlink.cubin"));
    ElfFile nvlink = ElfFile::parse("nvlink.cubin", ByteView{nvlinkImage.data(),
                                                           nvlinkImage.size()});
    const ElfSection *expected = nvlink.findSection(".debug_frame");
    REQUIRE(expected);

    MockDescriptor real("sm100-mercury");
    LinkResult linked = link(real, "sm_100", in);
    REQUIRE(linked.outcome == "ok");
    const ElfSection *frame = linked.section(".debug_frame");
    REQUIRE(frame);
    CHECK(std::vector<uint8_t>(frame->data.data, frame->data.data + frame->data.size) ==
          std::vector<uint8_t>(expected->data.data,
                               expected->data.data + expected->data.size));

    MockDescriptor none("sm100-mercury");
    none.desc.code_tail = nullptr;
    CHECK(link(none, "sm_100", in).outcome.find(
              "which culd models only where that code ends with the return its frame rows "
              "name") !=
          std::string::npos);

    // A tail that does not match the winner's frame rows is not used.
    MockDescriptor elsewhere("sm100-mercury");
    elsewhere.desc.code_tail = [](uint32_t, const uint8_t *, uint64_t,
                                  culd_code_tail *tail) -> int32_t {
        *tail = {0x20, 0x30, 32}; // the winner's rows name a return at 0x10
        return 0;
    };
    CHECK(link(elsewhere, "sm_100", in).outcome.find("ends with the return its frame rows name") !=
          std::string::npos);

    // Nor one whose return the winner's Mercury rows do not name (a
    // 16-byte return would start at 0x30; they name 0x20).
    MockDescriptor shorter("sm100-mercury");
    shorter.desc.code_tail = [](uint32_t, const uint8_t *, uint64_t,
                                culd_code_tail *tail) -> int32_t {
        *tail = {0x10, 0x20, 16};
        return 0;
    };
    std::string refused = link(shorter, "sm_100", in).outcome;
    CHECK(refused.find("frame.cubin: section '.debug_frame': the frame entry of 'pick(int)'") !=
          std::string::npos);
    CHECK(refused.find("ends with the return its frame rows name") != std::string::npos);
}
