// The merge sort nvlink uses for its linked lists of shared variables.
//
// It is not stable, and which equal elements come first is visible in the
// output (the offsets patched into code), so culd reproduces it exactly:
// the list is split by dealing its elements alternately onto the fronts of
// two lists (so each half is reversed), both halves are sorted the same way,
// then merged, taking the second half's head whenever `takeSecond(a, b)`
// says so for the heads a (first half) and b (second half).
//
// Found by linking kernels whose shared variables compare equal: n equal
// variables come out in exactly the order this gives (docs/nvlink-findings.md).
#pragma once

#include <cstddef>
#include <vector>

namespace culd {

template <class T, class TakeSecond>
void nvlinkListSort(std::vector<T> &list, TakeSecond takeSecond) {
    if (list.size() <= 1)
        return;
    std::vector<T> first, second;
    first.reserve(list.size() / 2 + 1);
    second.reserve(list.size() / 2);
    // Dealing onto the front: the last element dealt to a half leads it.
    for (std::size_t i = list.size(); i-- > 0;)
        (i % 2 == 0 ? first : second).push_back(list[i]);
    nvlinkListSort(first, takeSecond);
    nvlinkListSort(second, takeSecond);
    std::size_t a = 0, b = 0, out = 0;
    while (a < first.size() && b < second.size())
        list[out++] = takeSecond(first[a], second[b]) ? second[b++] : first[a++];
    while (a < first.size())
        list[out++] = first[a++];
    while (b < second.size())
        list[out++] = second[b++];
}

} // namespace culd
