// How culd's reports name a symbol for people.
#pragma once

#include <string>
#include <string_view>

namespace culd {

// The C++ runtime's demangling of `name`, or `name` itself when it is not
// a mangled C++ name.
std::string demangle(std::string_view name);

// A name as nvlink's messages write it: demangled, with a blank before '*'
// and '&' ("kk(int *)"); the name itself when it does not demangle.
std::string demangleForMessage(std::string_view name);

// A function name as nvlink's --dump-callgraph writes it: its own
// demangler's spelling ("T1 ns::twice<float>(T1)"); demangleForMessage's
// where culd does not model the name (CallGraphNames.cpp).
std::string demangleForCallGraph(std::string_view name);

// "mid(int) (_Z3midi)" for a mangled name, the name alone otherwise.
std::string describeSymbolName(std::string_view name);

} // namespace culd
