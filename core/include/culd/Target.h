// What the link knows about its target architecture, asked through named
// queries (modelled on lld's TargetInfo). Built once from the plugin's
// descriptor and arch record; passes see this, never the raw C structs, so
// every per-arch decision has one place where the plugin answers it.
#pragma once

#include "culd/PluginRegistry.h"

#include <culd/plugin.h>

#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace culd {

struct ByteView;
struct ElfSection;

class Target {
public:
    // Throws FatalError when `plugin` does not serve `sm`.
    Target(const Plugin &plugin, uint32_t sm);

    const Plugin &plugin() const { return plugin_; }
    uint32_t sm() const { return arch_.sm; }
    std::string name() const { return "sm_" + std::to_string(arch_.sm); }

    // Input compatibility: the target's own SM or one the plugin lists.
    bool acceptsInputSm(uint32_t inputSm) const;

    // Output format.
    bool isMercury() const { return arch_.flags & CULD_ARCH_F_MERCURY; }
    bool relaOnly() const { return arch_.reloc_style == CULD_RELOC_STYLE_RELA_ONLY; }
    bool writesCompat() const { return arch_.flags & CULD_ARCH_F_COMPAT; }
    bool writesRelAction() const { return arch_.flags & CULD_ARCH_F_REL_ACTION; }
    bool textInfoHasRegCount() const { return arch_.flags & CULD_ARCH_F_TEXT_REGCOUNT; }
    bool const0AfterData() const { return arch_.flags & CULD_ARCH_F_CONST0_AFTER_DATA; }
    bool preserveRelocsIsPartial() const {
        return arch_.flags & CULD_ARCH_F_PRESERVE_RELOCS_PARTIAL;
    }
    bool relocatableRecordsPhentsize() const {
        return arch_.flags & CULD_ARCH_F_RELOCATABLE_PHENTSIZE;
    }
    uint32_t programHeaderLayout() const { return arch_.phdr_layout; }
    bool linkerSymbolsAreCudaObjects() const {
        return arch_.flags & CULD_ARCH_F_LINKER_SYMBOLS_CUDA_OBJECT;
    }
    bool keepsResolvedRelocs() const { return !(arch_.flags & CULD_ARCH_F_NO_RESOLVED_RELOCS); }
    bool lateSectionSymbolsLast() const {
        return arch_.flags & CULD_ARCH_F_LATE_SECTION_SYMBOLS_LAST;
    }
    bool moduleSharedSpansReservation() const {
        return arch_.flags & CULD_ARCH_F_MODULE_SHARED_RESERVED;
    }
    bool emptyWindowsUnnamed() const { return arch_.flags & CULD_ARCH_F_EMPTY_WINDOWS_UNNAMED; }
    bool replacedFramesDropped() const {
        return arch_.flags & CULD_ARCH_F_REPLACED_FRAMES_DROPPED;
    }
    bool lostCopyBanksDropped() const {
        return arch_.flags & CULD_ARCH_F_LOST_COPY_BANKS_DROPPED;
    }
    bool undefinedDataMinusOne() const {
        return arch_.flags & CULD_ARCH_F_UNDEFINED_DATA_MINUS_ONE;
    }
    bool externSharedInstances() const {
        return arch_.flags & CULD_ARCH_F_EXTERN_SHARED_INSTANCES;
    }
    bool wideColouredShared() const { return arch_.flags & CULD_ARCH_F_WIDE_COLOURED_SHARED; }
    bool wideEmptyWindows() const { return arch_.flags & CULD_ARCH_F_WIDE_EMPTY_WINDOWS; }
    bool linksFrameByEntry() const { return arch_.flags & CULD_ARCH_F_FRAME_BY_ENTRY; }
    // Whether .nv.info.<f> records of this code follow the reversed others.
    bool isInfoTailCode(uint32_t code) const;
    bool elfAbiV7() const { return arch_.elf_abi == CULD_ELF_ABI_V7; }
    uint32_t elfFlagsLow() const { return arch_.elf_flags_low; }

    // Memory.
    uint32_t reservedSharedMemory() const { return arch_.reserved_smem; }
    uint32_t reservedSharedOffset0() const { return arch_.reserved_smem_offset0; }
    uint64_t maxConstantBankSize() const { return arch_.max_cbank_size; }
    uint32_t userConstantBank() const { return arch_.user_cbank; }
    uint32_t optimizerConstantBank() const { return arch_.optimizer_cbank; }
    // Under -r: the prefix of the names jump-table symbols take (empty: they
    // keep theirs).
    std::string_view relocatableBankSymbolPrefix() const {
        return arch_.relocatable_bank_symbol_prefix ? arch_.relocatable_bank_symbol_prefix : "";
    }

    // .nv.compat CAN_FASTPATH_FINALIZE: the bits of the mask that depend on
    // the code linked for an SM (0: the inputs' masks are ANDed), and which
    // of them one function's code, compiled for `codeSm`, clears (ABI 2.5
    // fastpath_clears; throws FatalError where the plugin has no such hook).
    uint32_t fastpathCodeBits() const { return arch_.fastpath_code_bits; }
    uint32_t fastpathCodeBits(uint32_t codeSm) const;
    uint32_t fastpathClears(ByteView code, uint32_t codeSm) const;

    // Relocations: the plugin's row for `type` (nullptr when unknown), and
    // whether the row's gating class admits it on this target.
    const culd_reloc_desc *reloc(uint32_t type) const { return plugin_.reloc(type); }
    std::string relocName(uint32_t type) const { return plugin_.relocName(type); }
    bool relocAllowed(const culd_reloc_desc &row) const {
        return row.min_arch_class <= arch_.arch_class;
    }

    // Section classification: what part of its family's Mercury shadow set
    // the plugin calls an input section (CULD_MERC_NONE: not Mercury).
    // Without a classifier (families with no Mercury set) only the generic
    // SHF_CUDA_MERCURY flag marks one, as DATA.
    culd_mercury_kind mercuryKind(const ElfSection &section) const;
    // Whether the plugin pairs Mercury sections with their SASS twins, so
    // that the core can link the shadow set (ABI 2.2 mercury_twin).
    bool linksMercurySet() const;
    // The SASS twin's name of a Mercury section; empty when it has none by
    // name (symbol tables, aliases).
    std::string_view mercuryTwinName(std::string_view mercuryName) const;

    // Where a value the linker resolves goes in a capsule (CULD_MERC_CODE):
    // the capsule byte offset of the field of a `relocType` relocation paired
    // with the one patching the SASS twin's instruction at `twinOffset`, or
    // nullopt where the capsule holds none (ABI 2.4 capsule_field, 2.9
    // CULD_CAPSULE_NO_FIELD). Throws FatalError with the plugin's reason (or
    // that it has no such hook) when it cannot place it.
    std::optional<uint64_t> capsuleField(ByteView capsule, uint32_t relocType,
                                         uint64_t twinOffset) const;

    // Code the plugin rewrites before layout (ABI 2.6 rewrite_code): the new
    // bytes of one function's .text, the input byte ranges removed, sorted
    // [begin, end), and its Mercury shadow's new bytes (empty: unchanged);
    // nullopt when the code stays as it is. Throws FatalError with the
    // plugin's reason when it cannot rewrite it.
    struct RewrittenCode {
        std::vector<uint8_t> bytes;
        std::vector<std::pair<uint64_t, uint64_t>> removed;
        std::vector<uint8_t> shadow;
    };
    std::optional<RewrittenCode> rewriteCode(ByteView code, ByteView shadow, uint32_t flags,
                                             uint32_t linkFlags) const;

    // How a function's code ends: with a return, at `return_offset`, and
    // padding from `padding_offset` on (ABI 2.11 code_tail); nullopt when it
    // does not, the plugin cannot tell or has no such hook.
    std::optional<culd_code_tail> codeTail(ByteView code) const;

    // Attribute gating. True when the record stays in the output; a WARN
    // policy warns once per code, ERROR throws FatalError naming the input
    // file and section.
    bool admitEiattr(uint8_t code, std::string_view file, std::string_view section) const;
    bool admitCompat(uint8_t code, std::string_view file, std::string_view section) const;

    // Runs the plugin's finaliser, if it has one, on the serialised image;
    // replaces `image` when the plugin produced a new one.
    // `linkFlags` (CULD_LINK_F_*) tell it what the link was asked for.
    void finalize(std::vector<uint8_t> &image, uint32_t linkFlags) const;

private:
    bool hasField(uint32_t minor, size_t fieldEnd) const;
    bool admit(uint32_t policy, const std::string &attribute, std::string_view file,
               std::string_view section) const;

    const Plugin &plugin_;
    culd_arch_info arch_{};
    const culd_plugin_descriptor &desc_;
    // Codes already warned about (gating runs from several threads).
    mutable std::mutex warnedMutex_;
    mutable std::set<std::string> warned_;
};

} // namespace culd
