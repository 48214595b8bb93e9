// nvlinkListSort against the orders nvlink 13.0 was seen to give n shared
// variables that compare equal (declared v0..v(n-1), in .symtab order).
#include "culd/ListSort.h"

#include <catch2/catch.hpp>

#include <numeric>
#include <vector>

using culd::nvlinkListSort;

namespace {

std::vector<int> sortEqual(int n, bool takeSecondOnTie) {
    std::vector<int> v(static_cast<size_t>(n));
    std::iota(v.begin(), v.end(), 0);
    nvlinkListSort(v, [&](int, int) { return takeSecondOnTie; });
    return v;
}

} // namespace

TEST_CASE("kernel's own variables: equal ones take the first half first") {
    // Offsets nvlink gave a kernel's own `__shared__ int vI[3]` (case 83).
    CHECK(sortEqual(2, false) == std::vector<int>{0, 1});
    CHECK(sortEqual(3, false) == std::vector<int>{2, 0, 1});
    CHECK(sortEqual(5, false) == std::vector<int>{0, 4, 2, 3, 1});
    CHECK(sortEqual(7, false) == std::vector<int>{2, 6, 0, 4, 1, 5, 3});
    CHECK(sortEqual(10, false) == std::vector<int>{8, 0, 4, 2, 6, 9, 1, 5, 3, 7});
}

TEST_CASE("module variables: equal sizes take the second half first") {
    // Offsets nvlink gave a shared device function's `__shared__ int vI[3]`.
    CHECK(sortEqual(2, true) == std::vector<int>{1, 0});
    CHECK(sortEqual(3, true) == std::vector<int>{1, 0, 2});
    CHECK(sortEqual(6, true) == std::vector<int>{3, 5, 1, 2, 4, 0});
    CHECK(sortEqual(9, true) == std::vector<int>{5, 1, 7, 3, 6, 2, 4, 0, 8});
    CHECK(sortEqual(10, true) == std::vector<int>{7, 3, 5, 1, 9, 6, 2, 4, 0, 8});
}

TEST_CASE("distinct keys sort fully") {
    std::vector<int> v{5, 3, 9, 1, 7, 2, 8};
    nvlinkListSort(v, [](int a, int b) { return b < a; });
    CHECK(v == std::vector<int>{1, 2, 3, 5, 7, 8, 9});
}
