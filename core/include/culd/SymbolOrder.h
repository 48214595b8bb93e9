// nvlink's order of the output's .symtab for the symbols it takes from its
// inputs. The writer numbers them by it; sm_100+ line tables order their
// sequences by it (DebugLine.cpp).
#pragma once

#include <functional>

namespace culd {

struct Context;
struct Symbol;

// What a walk over the inputs' symbols in table order does with each.
struct SymbolTableVisitor {
    // Whether the output carries the symbol; others are passed over.
    std::function<bool(const Symbol &)> carries;
    // A section symbol of an input, where it comes among the locals.
    std::function<void(Symbol &)> sectionSymbol;
    // A symbol filed with the locals, then one filed with the globals, each
    // once and in table order.
    std::function<void(Symbol &)> local, global;
};

// Per input, in its symbol-table order: its section symbols and the symbols
// nvlink files with the locals -- local ones, and a global whose first
// appearance is a weak definition (it stays there even when a later strong
// definition replaces it). Then per input the other globals in order of
// first appearance, an input's weak undefined references after its other
// globals.
void visitSymbolsInTableOrder(const Context &ctx, const SymbolTableVisitor &visitor);

} // namespace culd
