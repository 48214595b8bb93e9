// Compares two cubins by meaning rather than by bytes.
//
// culd's output is judged against nvlink's. Byte identity is the ideal, but
// many differences are only numbering or layout: symbol indices, string-table
// offsets, section offsets, the order of records nvlink happens to emit. This
// comparison replaces every index by the name it stands for and every
// order-free list by a multiset, so that what remains is a difference a
// loader or driver could observe. docs/culd-diff.md lists each rule and why.
#pragma once

#include "culd/ElfFile.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace culd {

enum class CubinDiffVerdict {
    Identical,  // byte for byte
    Equivalent, // bytes differ, meaning does not
    Different
};

// "IDENTICAL", "EQUIVALENT" or "DIFFERENT".
const char *verdictName(CubinDiffVerdict verdict);

// What a difference is about; lets tests and tools filter without parsing
// the message.
enum class DiffKind {
    Header,        // ELF header field
    Section,       // section header field, content, presence or order
    Symbol,        // symbol field, presence or order
    Relocation,    // entry of a relocation section
    Record,        // .nv.info / .nv.compat / callgraph / prototype / note record
    ProgramHeader
};

struct CubinDifference {
    DiffKind kind = DiffKind::Section;
    std::string subject; // "section '.text._Z3foov'", "symbol '_Z3foov'", ...
    std::string message; // "size 0x100 vs 0x180" (first file's value first)

    std::string str() const { return subject + ": " + message; }
};

struct CubinDiffOptions {
    // Also report pure layout differences: section order, symbol order and
    // raw segment sizes (which include alignment padding).
    bool strictOrder = false;
    // Also report a different order of the sections a linker makes per
    // function as it merges code (.text.<f>, .nv.shared.<k>,
    // .nv.capmerc.text.<f>): no meaning of its own, but nvlink's windows
    // take their addresses in that order (docs/culd-diff.md).
    bool codeOrder = false;
    // Section names skipped entirely (content, header and presence).
    std::vector<std::string> ignoredSections;
    // Names relocation types in messages; "type 0x<n>" when empty. Called
    // only while describing a difference, so it may load plugins lazily.
    std::function<std::string(uint32_t type)> relocationName;
};

struct CubinDiffResult {
    CubinDiffVerdict verdict = CubinDiffVerdict::Identical;
    std::vector<CubinDifference> differences; // all of them, in file order

    bool same() const { return verdict != CubinDiffVerdict::Different; }
};

// Compares `a` with `b`. Never throws for malformed metadata inside a parsed
// file: an undecodable section is reported as a difference.
CubinDiffResult diffCubins(const ElfFile &a, const ElfFile &b,
                           const CubinDiffOptions &options = {});

// Maps and parses both files, then compares them. Throws FatalError when a
// file cannot be read or is not a valid ELF file.
CubinDiffResult diffCubinFiles(const std::string &pathA, const std::string &pathB,
                               const CubinDiffOptions &options = {});

// Prints the verdict line and then up to `maxDiffs` differences, one per
// line, indented by two spaces; says how many were left out.
void printDiffReport(std::ostream &out, const CubinDiffResult &result, size_t maxDiffs);

} // namespace culd
