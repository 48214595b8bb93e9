/*
 * culd plugin ABI — the C contract between the culd host and an architecture
 * backend loaded at run time.
 *
 * Rules of the boundary:
 *   - Plain C: structs of fixed-width integers, const char*, function pointers.
 *     No C++ types, no exceptions, no ownership transfer: every pointer a
 *     plugin returns stays valid until the plugin is unloaded.
 *   - One exported symbol, CULD_PLUGIN_ENTRY_NAME ("culd_plugin_entry"), of
 *     type culd_plugin_entry_fn. Everything else is reached through the
 *     descriptor it returns.
 *   - Versioning: the host loads a plugin only when descriptor->abi_major ==
 *     CULD_PLUGIN_ABI_MAJOR and descriptor->abi_minor <= the host's minor.
 *     A minor bump only appends fields at the end of a struct; every
 *     extensible struct starts with `struct_size`, so an older plugin's
 *     shorter struct is read only up to its size and missing trailing fields
 *     count as zero / NULL.
 *   - Hooks are optional unless documented otherwise: NULL means "the core's
 *     default behaviour".
 *   - Relocation work crosses the boundary per section (one call with every
 *     relocation of that section the plugin claimed), never per relocation.
 */
#ifndef CULD_PLUGIN_H
#define CULD_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CULD_PLUGIN_ABI_MAJOR 2u
#define CULD_PLUGIN_ABI_MINOR 12u

/* Name of the single exported entry point. */
#define CULD_PLUGIN_ENTRY_NAME "culd_plugin_entry"

#if defined(_WIN32)
#define CULD_PLUGIN_EXPORT __declspec(dllexport)
#else
#define CULD_PLUGIN_EXPORT __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------------- */
/* Relocations                                                               */
/* ------------------------------------------------------------------------- */

/* Who resolves a relocation type (the compiler's resolver class). */
typedef enum culd_resolver {
    CULD_RESOLVE_NONE = 0,      /* no-op type (R_CUDA_NONE): dropped            */
    CULD_RESOLVE_LINKER = 1,    /* the linker must apply it; never in output    */
    CULD_RESOLVE_DRIVER = 2,    /* never applied by the linker; kept for loader */
    CULD_RESOLVE_FINALIZER = 3, /* resolved by a Mercury finaliser              */
    CULD_RESOLVE_EITHER = 4     /* applied when the target is a link-time offset
                                   (shared, constant, local), kept otherwise   */
} culd_resolver;

/* What value a bit action writes (the compiler's NVRS value kinds).
 * S = symbol value, A = addend, P = offset of the patched word. */
typedef enum culd_value_kind {
    CULD_VK_NONE = 0,
    CULD_VK_ADDR = 1,     /* S + A                                   */
    CULD_VK_GADDR = 2,    /* global-window address (driver)          */
    CULD_VK_HEADER = 3,   /* texture/sampler/surface header index    */
    CULD_VK_HWDESC = 4,
    CULD_VK_HWSWDESC = 5,
    CULD_VK_LOADDR = 6,   /* low 32 bits of S + A                    */
    CULD_VK_HIADDR = 7,   /* high 32 bits of S + A                   */
    CULD_VK_SLOT = 8,     /* resource slot                           */
    CULD_VK_SHIFT2 = 9,   /* (S + A) >> 2 (first piece of split fields) */
    CULD_VK_CBANK = 10,   /* constant bank number of the target      */
    CULD_VK_CBANK4 = 11,  /* bit 4 of the constant bank number       */
    CULD_VK_FDESC = 12,
    CULD_VK_LOFDESC = 13,
    CULD_VK_HIFDESC = 14,
    CULD_VK_FDESCA = 15,
    CULD_VK_PCREL = 16,   /* (int32)(S + A) - P, same section only    */
    CULD_VK_INST = 17,    /* whole-instruction replacement (driver)   */
    CULD_VK_INST_OPCODE = 18,
    CULD_VK_INST_FIELD_CLEAR = 19,
    CULD_VK_CLEAR = 20,   /* write zero                               */
    CULD_VK_SHIFT8 = 21,  /* second piece of a split 55/56-bit field  */
    CULD_VK_ADDR8_0 = 22, /* 22..29: byte n of S + A                  */
    CULD_VK_GADDR8_0 = 30,/* 30..37: byte n of the global address     */
    CULD_VK_FDESC8_0 = 38,/* 38..45: byte n of a function descriptor  */
    CULD_VK_UADDR = 46,   /* unified address (driver)                 */
    CULD_VK_UADDR8_0 = 47,/* 47..54: byte n of the unified address    */
    CULD_VK_LOUADDR = 55,
    CULD_VK_HIUADDR = 56,
    CULD_VK_COUNT = 57
} culd_value_kind;

/* One "bits [offset, offset+width) of the patched words receive
 * (value >> shift)" step. Words are little-endian 64-bit; a field may cross
 * a 64-bit boundary (instructions are up to 128 bits). kind 0 = empty. */
typedef struct culd_bit_action {
    uint16_t bit_offset;
    uint16_t bit_width;
    uint16_t kind;  /* culd_value_kind */
    uint16_t shift; /* right shift applied to the value before masking */
} culd_bit_action;

#define CULD_MAX_BIT_ACTIONS 3

/* Flags of a relocation descriptor. */
enum {
    /* The plugin's apply_relocations hook handles this type instead of the
     * core's bit-action loop. */
    CULD_RELOC_F_HOOK = 1u << 0,
    /* A unified type: rewritten to `plain_type` when kept in the output. */
    CULD_RELOC_F_UNIFIED = 1u << 1
};

/* Descriptor of one relocation type. `type` is the r_type as stored in the
 * file (R_MERCURY types are 0x10000 + index). */
typedef struct culd_reloc_desc {
    uint32_t type;
    uint32_t resolver;       /* culd_resolver */
    const char *name;        /* "R_CUDA_ABS32_LO_32"; never NULL */
    uint32_t flags;          /* CULD_RELOC_F_* */
    uint32_t plain_type;     /* with CULD_RELOC_F_UNIFIED: the plain type */
    uint32_t min_arch_class; /* gating class (0 = any): an input relocation of
                                this type is refused on a target whose
                                arch_class is lower */
    uint32_t num_actions;    /* 0..CULD_MAX_BIT_ACTIONS */
    culd_bit_action actions[CULD_MAX_BIT_ACTIONS];
} culd_reloc_desc;

/* A relocation handed to apply_relocations: everything already resolved by
 * the core, so a hook never needs the symbol table. */
typedef struct culd_reloc_work {
    uint64_t offset;        /* byte offset of the patched word in the section */
    uint32_t type;          /* r_type */
    uint32_t target_kind;   /* culd_target_kind of the symbol's section */
    int64_t addend;         /* RELA addend (0 for REL; field holds it) */
    uint64_t symbol_value;  /* S: final value (offset inside its window) */
    uint64_t symbol_size;
    uint32_t cbank;         /* constant bank number when target is a cbank */
    uint32_t status;        /* out: culd_reloc_status */
} culd_reloc_work;

/* Where the target symbol lives — decides EITHER-class handling. */
typedef enum culd_target_kind {
    CULD_TARGET_UNDEFINED = 0,
    CULD_TARGET_CODE = 1,
    CULD_TARGET_GLOBAL = 2,   /* .nv.global / .nv.global.init */
    CULD_TARGET_SHARED = 3,
    CULD_TARGET_CONSTANT = 4,
    CULD_TARGET_LOCAL = 5,
    CULD_TARGET_OTHER = 6     /* debug and other non-alloc sections */
} culd_target_kind;

typedef enum culd_reloc_status {
    CULD_RELOC_APPLIED = 0, /* patched; drop from the output */
    CULD_RELOC_KEEP = 1,    /* left for the driver; keep in the output */
    CULD_RELOC_ERROR = 2    /* the hook reported an error through the host */
} culd_reloc_status;

/* A section's bytes, writable, as the hook sees them. */
typedef struct culd_section_bytes {
    const char *name;
    uint32_t sh_type;
    uint32_t reserved;
    uint64_t sh_flags;
    uint8_t *data;
    uint64_t size;
} culd_section_bytes;

/* ------------------------------------------------------------------------- */
/* Architectures                                                             */
/* ------------------------------------------------------------------------- */

/* Suffix variants an SM supports. */
enum {
    CULD_VARIANT_A = 1u << 0, /* sm_90a, sm_100a ... (arch-specific) */
    CULD_VARIANT_F = 1u << 1  /* sm_100f ... (family) */
};

/* Relocation section style of the output. */
typedef enum culd_reloc_style {
    CULD_RELOC_STYLE_SPLIT = 0,     /* REL for zero addends, RELA otherwise */
    CULD_RELOC_STYLE_RELA_ONLY = 1
} culd_reloc_style;

/* Per-target feature flags. */
enum {
    CULD_ARCH_F_REL_ACTION = 1u << 0,        /* write .nv.rel.action */
    CULD_ARCH_F_COMPAT = 1u << 1,            /* write .nv.compat */
    CULD_ARCH_F_MERCURY = 1u << 2,           /* inputs carry a Mercury shadow set */
    CULD_ARCH_F_TEXT_REGCOUNT = 1u << 3,     /* .text sh_info top byte = regs */
    CULD_ARCH_F_CONST0_AFTER_DATA = 1u << 4, /* .nv.constant0.<k> after NOBITS */
    /* --preserve-relocs keeps only part of what was resolved: the link warns
     * that the option is not fully implemented, as nvlink does. */
    CULD_ARCH_F_PRESERVE_RELOCS_PARTIAL = 1u << 5,
    /* A relocatable (-r) output records e_phentsize although it has no
     * program headers. */
    CULD_ARCH_F_RELOCATABLE_PHENTSIZE = 1u << 6,
    /* The symbols the linker defines (.nv.reservedSmem.*, __UFT*, __UDT*)
     * are STT_CUDA_OBJECT (else STT_OBJECT, like every other data symbol of
     * an executable). ABI 2.1. */
    CULD_ARCH_F_LINKER_SYMBOLS_CUDA_OBJECT = 1u << 7,
    /* The section symbols of the constant banks follow the globals, and
     * .symtab's sh_info counts every symbol: the table is not re-sorted
     * after layout. ABI 2.1. */
    CULD_ARCH_F_LATE_SECTION_SYMBOLS_LAST = 1u << 8,
    /* .debug_frame is linked entry by entry: the CIE and FDE of a function
     * the output does not carry (removed as dead, or a weak copy that lost
     * to an earlier one) are dropped, and every FDE's CIE pointer is the
     * output offset of the CIE before it, whatever its relocation says.
     * The other function-by-function debug sections follow: line tables
     * lose such a function's sequences; the register-location records
     * (.nv_debug_info_reg_sass) of a function whose name an earlier input's
     * records already gave get zero code ranges. ABI 2.2. */
    CULD_ARCH_F_FRAME_BY_ENTRY = 1u << 9,
    /* --preserve-relocs writes no .nv.resolvedrela<x> sections (nvlink's
     * output is then the plain link's). ABI 2.2. */
    CULD_ARCH_F_NO_RESOLVED_RELOCS = 1u << 10,
    /* The module shared window (.nv_debug.shared) kept because extern
     * __shared__ arrays are used spans the reserved shared memory also
     * without -g (else it is empty), and under -g the extern arrays read
     * as addresses after it also where it holds no variable. ABI 2.2. */
    CULD_ARCH_F_MODULE_SHARED_RESERVED = 1u << 11,
    /* A shared-memory window that holds no variable (only the reservation
     * and dynamic shared memory) gets no section symbol. ABI 2.2. */
    CULD_ARCH_F_EMPTY_WINDOWS_UNNAMED = 1u << 12,
    /* A function's copy whose code refers to other symbols (a call, data)
     * that a later definition replaced counts as one that lost: what
     * describes it (its .debug_frame entry and that entry's relocations)
     * goes. ABI 2.6. */
    CULD_ARCH_F_REPLACED_FRAMES_DROPPED = 1u << 13,
    /* The per-function constant bank (.nv.constant2.<f>) of a weak copy
     * that lost to an earlier definition goes with its code. Without it,
     * the core keeps the bank as nvlink up to sm_89 does. ABI 2.7. */
    CULD_ARCH_F_LOST_COPY_BANKS_DROPPED = 1u << 14,
    /* A relocatable link (-r) writes a variable still undefined (extern
     * __device__, defined by a later link) with the value -1, its
     * references left for that link (nvlink 13.0, sm_75-sm_121). Without
     * it, the core refuses -r with an undefined variable. ABI 2.9. */
    CULD_ARCH_F_UNDEFINED_DATA_MINUS_ONE = 1u << 15,
    /* A relocatable link (-r) gives each kernel whose own code uses extern
     * __shared__ arrays an `externsharedinstance` symbol at its window's
     * static end (rounded up to 16) and points that code's references at
     * it; the arrays are defined in .nv_debug.shared (nvlink 13.0,
     * sm_75-sm_121). Without it, the core refuses such a link. ABI 2.10. */
    CULD_ARCH_F_EXTERN_SHARED_INSTANCES = 1u << 16,
    /* While module shared variables aligned to more than 16 stay coloured
     * (several kernels, or none, reach them) beside extern __shared__
     * arrays, a final link drops .nv_debug.shared (under -g it stays,
     * aligned as those variables), and a kernel of no static shared memory
     * gets no window (nvlink 13.0, sm_75-sm_121). Without it, the core
     * refuses such a link. ABI 2.12. */
    CULD_ARCH_F_WIDE_COLOURED_SHARED = 1u << 17,
    /* With CULD_ARCH_F_WIDE_COLOURED_SHARED: a kernel of no static shared
     * memory still gets a window there (the reservation, aligned as those
     * variables), as every kernel does while they are aligned to 16
     * (nvlink 13.0, sm_90). ABI 2.12. */
    CULD_ARCH_F_WIDE_EMPTY_WINDOWS = 1u << 18
};

/* Program headers of an executable (non -r) output. */
typedef enum culd_phdr_layout {
    CULD_PHDR_NONE = 0,     /* no program header table */
    CULD_PHDR_CODE_DATA = 1, /* PHDR, LOAD R+X over constant banks and code,
                               LOAD R+W over the data windows (when any),
                               LOAD R+X over the program header table */
    CULD_PHDR_SPLIT = 2     /* PHDR (R), LOAD R over the program header
                               table, LOAD R over the constant banks before
                               the code, LOAD R+X over code, LOAD R+W over
                               the data windows, LOAD R over the constant
                               banks after them (each when any). ABI 2.1;
                               the banks before the code since ABI 2.3 */
} culd_phdr_layout;

/* ELF header encoding family. */
typedef enum culd_elf_abi {
    CULD_ELF_ABI_V7 = 7, /* OSABI 0x33: SM in bits 0-7 and 16-23 (CUDA <= 12) */
    CULD_ELF_ABI_V8 = 8  /* OSABI 0x41: SM in bits 8-15, cuinfo index 24-31 */
} culd_elf_abi;

/* Everything the core needs to know about one real SM. */
typedef struct culd_arch_info {
    uint32_t struct_size;        /* sizeof(culd_arch_info) of the plugin */
    uint32_t sm;                 /* 75, 90, 100 ... */
    uint32_t variants;           /* CULD_VARIANT_* accepted for this SM */
    uint32_t arch_class;         /* relocation/EIATTR gating class (1,2,3,5) */
    uint32_t flags;              /* CULD_ARCH_F_* */
    uint32_t elf_abi;            /* culd_elf_abi */
    uint32_t elf_flags_low;      /* V8: low byte of e_flags (0x04 / 0x02) */
    uint32_t reserved_smem;      /* bytes added to each kernel's shared size */
    uint32_t max_cbank_size;     /* bytes per constant bank */
    uint32_t user_cbank;         /* bank of __constant__ data */
    uint32_t reloc_style;        /* culd_reloc_style */
    uint32_t phdr_layout;        /* culd_phdr_layout */
    uint32_t num_compatible;     /* entries in compatible_inputs */
    const uint32_t *compatible_inputs; /* other input SMs accepted for this
                                          target (e.g. 80 for sm_86) */
    /* ABI 2.1: .nv.info.<f> records are written in the reverse of their
     * input order, except these codes, which follow the others in input
     * order. */
    uint32_t num_info_tail_codes;
    const uint32_t *info_tail_codes;
    /* ABI 2.2: where the reserved shared memory's own variables start, the
     * value of `.nv.reservedSmem.offset0` (0x40 on sm_100+, 0 on sm_90).
     * The .nv.shared.reserved.<x> sections are laid out from there. */
    uint32_t reserved_smem_offset0;
    /* ABI 2.3: the bank of the compiler's per-function constants (jump
     * tables: .nv.constant2.<f> on sm_100+); 0 when none has a Mercury
     * twin. */
    uint32_t optimizer_cbank;
    /* ABI 2.4: under -r, each local symbol defined in a function's
     * compiler constants (a jump table in the twin of a
     * CULD_MERC_FUNCTION_BANK) is renamed "<this><function>.<n>", n counting
     * them from 1 per input file in symbol-table order; NULL keeps the
     * input names. */
    const char *relocatable_bank_symbol_prefix;
    /* ABI 2.5: the bits of the .nv.compat CAN_FASTPATH_FINALIZE mask that
     * depend on the code linked (0x8 on sm_100: code the compiler could not
     * hand to sm_103 unchanged clears it). The output mask is then the AND,
     * over the functions linked, of their file's mask with these bits put
     * back where the descriptor's fastpath_clears says the function's code
     * does not clear them. 0: the inputs' masks are ANDed. */
    uint32_t fastpath_code_bits;
} culd_arch_info;

/* ------------------------------------------------------------------------- */
/* Host services and hooks                                                   */
/* ------------------------------------------------------------------------- */

typedef enum culd_log_level {
    CULD_LOG_DEBUG = 0,
    CULD_LOG_INFO = 1,
    CULD_LOG_WARNING = 2,
    CULD_LOG_ERROR = 3
} culd_log_level;

/* What the link was asked for, as far as a hook's output depends on it
 * (culd_host.link_flags; ABI 2.1, zero before). */
enum {
    CULD_LINK_F_DEBUG = 1u << 0,       /* -g: the output keeps debug info   */
    CULD_LINK_F_DEBUG_INPUTS = 1u << 1,/* an input carries -G debug info
                                          (.debug_info)                     */
    CULD_LINK_F_RELEASE_CODE = 1u << 2 /* an input without .debug_info
                                          brings code the output keeps
                                          (ABI 2.8; clear before)           */
};

/* Given by the host to every hook call. */
typedef struct culd_host {
    uint32_t struct_size;
    uint32_t link_flags; /* CULD_LINK_F_* (ABI 2.1; was reserved, zero) */
    void *opaque;
    /* Reports a diagnostic; an ERROR makes the link fail (after the hook
     * returns). `msg` is copied. */
    void (*report)(void *opaque, uint32_t level, const char *msg);
} culd_host;

/* Output buffer for a hook that produces bytes (the finaliser). The hook
 * calls `grow` to get memory the host owns. */
typedef struct culd_buffer {
    uint32_t struct_size;
    uint32_t reserved;
    void *opaque;
    uint8_t *(*grow)(void *opaque, uint64_t size); /* NULL when out of memory */
} culd_buffer;

/* Policy for an .nv.info attribute on a target. */
typedef enum culd_eiattr_policy {
    CULD_EIATTR_KEEP = 0,
    CULD_EIATTR_WARN = 1,  /* "Attribute %s not supported on %s", kept */
    CULD_EIATTR_ERROR = 2, /* link fails */
    CULD_EIATTR_DROP = 3   /* silently removed */
} culd_eiattr_policy;

/* Kinds of Mercury section the core must treat specially. */
typedef enum culd_mercury_kind {
    CULD_MERC_NONE = 0,   /* not a Mercury section */
    CULD_MERC_CODE = 1,   /* .nv.capmerc.text.<f> */
    CULD_MERC_INFO = 2,   /* .nv.merc.nv.info[.<f>] */
    CULD_MERC_RELA = 3,   /* .nv.merc.rela<target> */
    CULD_MERC_SYMTAB = 4, /* .nv.merc.symtab */
    CULD_MERC_ALIAS = 5,  /* shares bytes with a SASS twin */
    CULD_MERC_DATA = 6,   /* other shadow data (debug copies ...) */
    /* ABI 2.3: a function's compiler constants (.nv.merc.nv.constant.
     * optimizer.<f>). mercury_twin gives where the function's name starts;
     * the twin is that function's .nv.constant<optimizer_cbank>.<f>, and
     * the section is copied wherever the twin is: into the bank of every
     * kernel that reaches a device function, at the twin's offset. */
    CULD_MERC_FUNCTION_BANK = 7
} culd_mercury_kind;

typedef int32_t (*culd_apply_relocations_fn)(const culd_host *host, uint32_t sm,
                                             culd_section_bytes *section,
                                             culd_reloc_work *relocs, size_t count);
typedef uint32_t (*culd_eiattr_policy_fn)(uint32_t sm, uint32_t code);
typedef uint32_t (*culd_classify_mercury_fn)(const char *name, uint32_t sh_type,
                                             uint64_t sh_flags);
typedef uint32_t (*culd_mercury_twin_fn)(const char *name);
typedef int32_t (*culd_finalize_fn)(const culd_host *host, uint32_t sm,
                                    const uint8_t *image, uint64_t size,
                                    culd_buffer *out);
/* capsule_field: the capsule holds no field for the relocation (ABI 2.9). */
#define CULD_CAPSULE_NO_FIELD UINT64_MAX

typedef int32_t (*culd_capsule_field_fn)(const culd_host *host, uint32_t sm,
                                         const uint8_t *capsule, uint64_t size,
                                         uint32_t reloc_type, uint64_t twin_offset,
                                         uint64_t *field_offset);
typedef uint32_t (*culd_fastpath_clears_fn)(uint32_t sm, const uint8_t *code, uint64_t size);

/* What the core tells rewrite_code about a function (ABI 2.6). */
enum {
    CULD_CODE_F_ENTRY = 1u << 0 /* a kernel (STO_CUDA_ENTRY) */
};
typedef int32_t (*culd_rewrite_code_fn)(const culd_host *host, uint32_t sm,
                                        const uint8_t *code, uint64_t size,
                                        const uint8_t *shadow, uint64_t shadow_size,
                                        uint32_t flags, culd_buffer *out_code,
                                        culd_buffer *out_removed, culd_buffer *out_shadow);

/* How a function's code ends (ABI 2.11 code_tail): the byte offset of its
 * last instruction, a return, the offset where the padding after it (a
 * branch to itself, then no-ops) starts, and the size of the return's
 * instruction in the function's Mercury code. */
typedef struct culd_code_tail {
    uint64_t return_offset;
    uint64_t padding_offset;
    uint64_t return_mercury_size;
} culd_code_tail;
typedef int32_t (*culd_code_tail_fn)(uint32_t sm, const uint8_t *code, uint64_t size,
                                     culd_code_tail *tail);

/* ------------------------------------------------------------------------- */
/* The descriptor                                                            */
/* ------------------------------------------------------------------------- */

typedef struct culd_plugin_descriptor {
    uint32_t abi_major;   /* CULD_PLUGIN_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor;   /* CULD_PLUGIN_ABI_MINOR the plugin was built with */
    uint32_t struct_size; /* sizeof(culd_plugin_descriptor) of the plugin */
    uint32_t reserved0;
    const char *name;     /* "sm90" */
    const char *version;  /* plugin's own version, free text */

    /* The SMs served, one culd_arch_info each (arch_info_size = sizeof the
     * plugin's culd_arch_info, so the array can be walked when it grows). */
    const culd_arch_info *archs;
    uint32_t num_archs;
    uint32_t arch_info_size;

    /* Every relocation type the family knows, R_CUDA and R_MERCURY alike, in
     * any order (the host indexes it). */
    const culd_reloc_desc *relocs;
    uint32_t num_relocs;
    uint32_t reloc_desc_size;

    /* Applies every relocation of one section whose descriptor carries
     * CULD_RELOC_F_HOOK. Sets each work item's status; returns 0 on
     * success, non-zero after reporting an error. Required when any
     * descriptor carries CULD_RELOC_F_HOOK. */
    culd_apply_relocations_fn apply_relocations;

    /* .nv.info attribute gating (culd_eiattr_policy per code); NULL keeps
     * every code. Codes above the core's table are refused before this. */
    culd_eiattr_policy_fn eiattr_policy;

    /* .nv.compat attribute gating, same contract; NULL keeps all. */
    culd_eiattr_policy_fn compat_policy;

    /* Recognises Mercury sections of an input; any kind but CULD_MERC_NONE
     * makes the core carry the section as Mercury shadow data. NULL = the
     * family has none (the SHF_CUDA_MERCURY flag alone still marks one). */
    culd_classify_mercury_fn classify_mercury_section;

    /* Optional post-link finaliser: gets the serialised output and may
     * write a replacement through `out` (the bytes of the last `grow`).
     * Returns 0 when it produced a replacement, 1 when the image is fine as
     * is, other values after reporting an error. */
    culd_finalize_fn finalize;

    /* ABI 2.2. Where the SASS twin of a Mercury section is named: the
     * offset into `name` at which the twin's name starts
     * (".nv.capmerc.text.f" -> 11, ".text.f"); 0 when the section has no
     * twin by name (symbol tables, alias sections, which the core pairs by
     * their bytes). NULL: the core links no Mercury set and refuses one. */
    culd_mercury_twin_fn mercury_twin;

    /* ABI 2.4. Where a value the linker resolves goes in a capsule
     * (CULD_MERC_CODE). A capsule's relocations address the code it expands
     * to, not its own bytes, yet nvlink writes some values into its encoded
     * instructions (constant-bank offsets: a jump table's, an immediate
     * `__constant__` operand's). Gets the capsule as linked (rewritten by
     * rewrite_code where it was), the relocation's type and the byte offset
     * in the linked SASS twin of the instruction the paired twin relocation
     * patches; writes the capsule byte offset where the relocation's field
     * starts, or CULD_CAPSULE_NO_FIELD (ABI 2.9) when the capsule holds no
     * field for it (the instruction is expanded from its twin, which carries
     * the value), and returns 0; or returns non-zero after reporting why it
     * cannot place it. NULL: the core refuses such relocations. */
    culd_capsule_field_fn capsule_field;

    /* ABI 2.5. Which of the arch's fastpath_code_bits one function's code
     * (the bytes of its .text) clears. Required when an arch sets
     * fastpath_code_bits; the core refuses an input whose own mask these
     * answers do not explain. */
    culd_fastpath_clears_fn fastpath_clears;

    /* ABI 2.6. Code the linker rewrites before layout, function by function
     * (nvlink 13.0 drops the memory-fence placeholders of sm_100+ kernels).
     * Gets one live function's .text of a final (not -r) link, its Mercury
     * shadow (the capsule; NULL and 0 when it has none) and CULD_CODE_F_*
     * flags. Returns 1 when the code stays as it is; 0 after writing the
     * new code through `out_code`, through `out_removed` the input byte
     * ranges that are gone as sorted [begin, end) pairs of uint64_t, and
     * the new shadow through `out_shadow` (not grown: the shadow stays).
     * Every other input byte of the code keeps its order, so the core moves
     * relocations, symbols, .nv.info offsets and frame entries with it; the
     * shadow's relocations and metadata, which address its own code, stay.
     * Other values after reporting why the code cannot be rewritten. NULL:
     * code is linked as it is. */
    culd_rewrite_code_fn rewrite_code;

    /* ABI 2.11. How one function's code (the bytes of its .text) ends: fills
     * `tail` and returns 0 when it ends with a return followed only by
     * padding, returns 1 when it does not or the plugin cannot tell. The
     * core uses it to map a replaced weak copy's call-frame rows through the
     * winning definition's Mercury code, as nvlink 13.0 does on sm_100+
     * (core/src/DebugFrame.cpp). NULL: the core refuses those entries. */
    culd_code_tail_fn code_tail;

    void *reserved[5]; /* zero; room for minor-version hooks */
} culd_plugin_descriptor;

/* The exported entry point. The host passes its own ABI version so a plugin
 * may adapt or refuse (return NULL). */
typedef const culd_plugin_descriptor *(*culd_plugin_entry_fn)(uint32_t host_abi_major,
                                                              uint32_t host_abi_minor);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CULD_PLUGIN_H */
