// The memory-fence placeholders of sm_100+ kernels.
//
// In -rdc code ptxas puts placeholder instructions in front of every
// memory fence it emits (`__threadfence*()`, the fences of atomics with an
// ordering, libcu++'s cuda::atomic_thread_fence), then, for a fence wider
// than the CTA, a second MEMBAR (its bit 79 set) before the fence itself:
//
//     LDS-form placeholder  x2-4  lo 0xfffff984, modifiers 0x800
//     [MEMBAR, bit 79 set]        lo 0x7992,     modifiers 0x8000
//     MEMBAR                      the fence
//
// (cooperative groups' grid sync puts both MEMBARs under one guard
// predicate: lo 0x2992 for P2). Four placeholders where nothing else fills
// the fence's shadow, two or three where ptxas scheduled other instructions
// of the block there. A release or acquire-release atomic of libcu++'s
// cuda::atomic_ref has a bit-79 MEMBAR of its own right before the atomic,
// with or without placeholders, and that one is the fence. Measured on
// nvlink 13.0.88 (docs/nvlink-findings.md, "Memory fences"), sm_100, 103,
// 110, 120 and 121 alike: in a final link nvlink deletes the placeholders
// and every prelude (a bit-79 MEMBAR followed by the fence) from every
// kernel that makes no call, keeps a bit-79 MEMBAR that is the fence, and
// keeps device functions and kernels with a call as they are; a -r link
// keeps everything. The rest of the code keeps its order and bytes; BRA and
// BSSY offsets follow the instructions they name, and the padding after the
// last instruction is recomputed (8 NOPs past the next multiple of 8
// instructions, the compiler's own rule). The capsule keeps its
// instructions; the counts of SASS-only instructions and of padding it holds
// follow (Capsule.cpp, shrinkCapsule). Exact on the 98 rewritten and 104
// kept functions of the generated and Thrust/CUB sets, and on the 318
// generated fence-kernel links (sm_100, sm_120) the shapes of two and three
// placeholders and lone bit-79 MEMBARs opened.
//
// Three placeholders in front of an asynchronous copy (LDGSTS) are not a
// fence's, and stay. Any other shape of placeholder run, or a control
// instruction whose target this file does not move, is refused: culd never
// writes code it cannot account for.
#include "Fences.h"
#include "Capsule.h"
#include "Finalizer.h"
#include "Hex.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace culd::mercury {

namespace {

constexpr uint64_t kModifierMask = (uint64_t(1) << 41) - 1; // hi bits below the control field

bool isPlaceholder(const Insn &i) {
    return i.lo == 0xfffff984 && (i.hi & kModifierMask) == 0x800;
}
// A MEMBAR with bit 79 set, under any guard: a fence's prelude or the fence
// itself (bit79Role).
bool isBit79Membar(const Insn &i) {
    return (i.lo & ~uint64_t(0xf000)) == 0x0992 && (i.hi & kModifierMask) == 0x8000;
}
bool isNop(const Insn &i) { return (i.lo & 0xfff) == 0x918; }

// Control instructions without a code target of their own.
bool hasNoTarget(uint32_t op9) {
    return (fallsThroughOnly(op9) && op9 != kBssy) || op9 == kExit || op9 == kRet ||
           op9 == kKill || op9 == kBpt;
}

// BSSY's reconvergence point: a signed byte offset from the next
// instruction in bits 32-63 (bit 73 and up hold modifiers).
int64_t bssyOffsetBytes(const Insn &i) { return static_cast<int32_t>(i.lo >> 32); }
bool setBssyOffsetBytes(Insn &i, int64_t bytes) {
    if (bytes > INT32_MAX || bytes < INT32_MIN)
        return false;
    i.lo = (i.lo & 0xffffffffu) | uint64_t(static_cast<uint32_t>(bytes)) << 32;
    return true;
}

// LDGSTS (`cp.async`, __pipeline_memcpy_async): ptxas puts three
// placeholders in front of it, and nvlink keeps them (generated
// variable-latency kernels, sm_100 and sm_120: 674 functions, every
// placeholder and instruction kept).
bool isAsyncCopy(const Insn &i) { return (i.lo & 0xffff) == 0x7fae; }
constexpr size_t kAsyncCopyPlaceholders = 3;

bool isMembar(const Insn &i) { return (i.lo & 0xfff) == 0x992; }
bool isUnguarded(const Insn &i) { return guard(i) == kAlways; }

// What a bit-79 MEMBAR at `at` is. Followed by a MEMBAR under the same
// guard it is that fence's prelude (a fence wider than the CTA; cooperative
// groups' grid sync guards both with the predicate of its one arriving
// thread), and nvlink removes it. Followed by anything else it is the fence
// itself -- libcu++'s release and acquire-release atomics put it right
// before the atomic -- and nvlink keeps it. A MEMBAR after it under another
// guard, or a second bit-79 one, is not measured.
enum class Bit79 { Prelude, Fence, Unmeasured };
Bit79 bit79Role(const std::vector<Insn> &code, size_t at) {
    if (at + 1 >= code.size() || !isMembar(code[at + 1]))
        return Bit79::Fence;
    const Insn &next = code[at + 1];
    return isBit79Membar(next) || guard(next) != guard(code[at]) ? Bit79::Unmeasured
                                                                 : Bit79::Prelude;
}

// The instructions removed: every fence prelude, and the placeholders in
// front of a fence. ptxas writes two to four placeholders, fewer where
// other instructions of the block fill the fence's shadow, and nvlink
// removes them all (generated fence and ordered-atomic kernels, sm_100 and
// sm_120: 3,800 runs of 4, 3 and 2). The fence after them is an unguarded
// MEMBAR, or a guarded prelude and its fence. Three placeholders in front
// of an asynchronous copy stay. Any other shape is refused.
bool findRemoved(const std::vector<Insn> &code, std::vector<bool> &removed, std::string &error) {
    removed.assign(code.size(), false);
    auto refuse = [&](size_t at) {
        error = "the memory-fence sequence at offset " + hex(uint64_t(at) * 16) +
                " is not of the shape culd has measured";
        return false;
    };
    for (size_t i = 0; i < code.size();) {
        if (isBit79Membar(code[i])) {
            Bit79 role = bit79Role(code, i);
            if (role == Bit79::Unmeasured)
                return refuse(i);
            removed[i] = role == Bit79::Prelude;
            ++i;
            continue;
        }
        if (!isPlaceholder(code[i])) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < code.size() && j - i < 4 && isPlaceholder(code[j]))
            ++j;
        if (j - i == kAsyncCopyPlaceholders && j < code.size() && isAsyncCopy(code[j])) {
            i = j + 1;
            continue;
        }
        const bool fenceAfter = j < code.size() && isMembar(code[j]) &&
                                (isUnguarded(code[j]) ||
                                 (isBit79Membar(code[j]) && bit79Role(code, j) == Bit79::Prelude));
        if (j - i < 2 || !fenceAfter)
            return refuse(i);
        std::fill(removed.begin() + static_cast<std::ptrdiff_t>(i),
                  removed.begin() + static_cast<std::ptrdiff_t>(j), true);
        i = j;
    }
    return true;
}

// Whether some instruction is a placeholder or a fence prelude, read in
// place.
bool holdsFenceSequence(const uint8_t *bytes, size_t size) {
    for (size_t at = 0; at + 16 <= size; at += 16) {
        Insn insn = loadInsn(bytes + at);
        if (isPlaceholder(insn) || isBit79Membar(insn))
            return true;
    }
    return false;
}

// The instruction count the compiler pads `used` instructions to.
size_t paddedCount(size_t used) { return (used + 7) / 8 * 8 + 8; }

size_t usedCount(const std::vector<Insn> &code) {
    size_t used = code.size();
    while (used > 0 && isNop(code[used - 1]))
        --used;
    return used;
}

} // namespace

FenceRewrite dropFencePlaceholders(const uint8_t *bytes, size_t size, const uint8_t *capsule,
                                   size_t capsuleSize, bool entry) {
    FenceRewrite result;
    auto fail = [&](std::string why) {
        result.status = FenceRewrite::Status::Error;
        result.error = std::move(why);
        return result;
    };
    // Device functions keep their placeholders; most code has none, and is
    // not copied to find out.
    if (!entry || !holdsFenceSequence(bytes, size))
        return result;
    std::vector<Insn> code = readCode(bytes, size);
    // Kernels that call keep theirs too.
    if (std::any_of(code.begin(), code.end(), isCall))
        return result;
    if (size % 16 != 0)
        return fail("its code is not a whole number of instructions");
    std::vector<bool> removed;
    if (!findRemoved(code, removed, result.error))
        return fail(result.error);
    if (std::none_of(removed.begin(), removed.end(), [](bool r) { return r; }))
        return result; // only placeholders nvlink keeps
    const size_t used = usedCount(code);
    if (used == 0 || code.size() != paddedCount(used))
        return fail("its code is not padded as the compiler pads it");

    // Where each input instruction goes; a removed one goes where the next
    // kept one does (a branch to it now reaches what followed it).
    std::vector<size_t> newIndex(code.size() + 1);
    size_t kept = 0;
    for (size_t i = 0; i < code.size(); ++i) {
        newIndex[i] = kept;
        kept += removed[i] ? 0 : 1;
    }
    newIndex[code.size()] = kept;

    std::vector<Insn> out;
    out.reserve(code.size());
    for (size_t i = 0; i < used; ++i) {
        if (removed[i])
            continue;
        Insn insn = code[i];
        uint32_t op = opcode9(insn);
        if (isControlClass(op) && !hasNoTarget(op)) {
            bool bra = op == kBra;
            if (!bra && op != kBssy)
                return fail("the control instruction at offset " + hex(uint64_t(i) * 16) +
                            " has a target culd does not move");
            int64_t offset = bra ? branchOffsetBytes(insn) : bssyOffsetBytes(insn);
            int64_t target = static_cast<int64_t>(i + 1) * 16 + offset;
            if (offset % 16 != 0 || target < 0 || target > static_cast<int64_t>(size))
                return fail("the branch at offset " + hex(uint64_t(i) * 16) +
                            " leaves the function");
            int64_t moved = static_cast<int64_t>(newIndex[static_cast<size_t>(target / 16)]) * 16 -
                            static_cast<int64_t>(newIndex[i] + 1) * 16;
            if (!(bra ? setBranchOffsetBytes(insn, moved) : setBssyOffsetBytes(insn, moved)))
                return fail("the branch at offset " + hex(uint64_t(i) * 16) +
                            " cannot be re-encoded");
        }
        out.push_back(insn);
    }
    const size_t newUsed = out.size();
    out.resize(paddedCount(newUsed), code.back()); // the compiler's NOP

    for (size_t i = 0; i < code.size();) {
        if (!removed[i]) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < code.size() && removed[j])
            ++j;
        result.removed.emplace_back(uint64_t(i) * 16, uint64_t(j) * 16);
        i = j;
    }
    // Padding that no longer fits goes from the end.
    const uint64_t keptInput = (code.size() - (used - newUsed)) * 16;
    if (out.size() * 16 < keptInput)
        result.removed.emplace_back(size - (keptInput - out.size() * 16), size);
    result.code.resize(out.size() * 16);
    writeCode(result.code.data(), out);
    // The capsule counts the SASS-only instructions and the padding.
    removed.resize(used);
    if (capsule && !shrinkCapsule(capsule, capsuleSize, removed, out.size() - newUsed,
                                  result.capsule, result.error))
        return fail("its capsule: " + result.error);
    result.status = FenceRewrite::Status::Rewritten;
    return result;
}

} // namespace culd::mercury
