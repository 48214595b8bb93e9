// Diagnostics::get() is the diagnostics of the link running on the calling
// thread: a DiagnosticsScope installs one, nested scopes restore the outer
// one, and another thread sees its own.
#include "culd/Diagnostics.h"

#include <catch2/catch.hpp>

#include <string>
#include <thread>

using namespace culd;

TEST_CASE("DiagnosticsScope makes a link's diagnostics this thread's", "[diagnostics]") {
    std::string outer, inner;
    Diagnostics a([&](Severity, const std::string &line) { outer += line; });
    Diagnostics b([&](Severity, const std::string &line) { inner += line; });
    Diagnostics *process = &Diagnostics::get();
    {
        DiagnosticsScope scopeA(a);
        CHECK(&Diagnostics::get() == &a);
        {
            DiagnosticsScope scopeB(b);
            Diagnostics::get().error("in b");
        }
        Diagnostics::get().warning("in a");
        // A thread of its own has no scope until it installs one.
        Diagnostics *seen = nullptr;
        std::thread([&] { seen = &Diagnostics::get(); }).join();
        CHECK(seen == process);
        std::thread([&] {
            DiagnosticsScope scope(a);
            Diagnostics::get().info("from a worker");
        }).join();
    }
    CHECK(&Diagnostics::get() == process);
    CHECK(inner == "culd error : in b\n");
    CHECK(outer == "culd warning : in a\nculd info : from a worker\n");
    CHECK(a.warningCount() == 1);
    CHECK(a.errorCount() == 0);
    CHECK(b.errorCount() == 1);
}

TEST_CASE("Diagnostics::startOver: a link run again prints each line once", "[diagnostics]") {
    std::string out;
    Diagnostics d([&](Severity, const std::string &line) { out += line; });
    d.warning("input skipped");
    d.info("read");
    d.startOver();
    CHECK(d.warningCount() == 0);
    // The second run prints the same lines (suppressed, still counted) and
    // new ones; a line repeated more often than before is printed again.
    d.warning("input skipped");
    d.warning("PTX instead");
    d.info("read");
    d.info("read");
    CHECK(d.warningCount() == 2);
    CHECK(out == "culd warning : input skipped\nculd info : read\n"
                 "culd warning : PTX instead\nculd info : read\n");
}
