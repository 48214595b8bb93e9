// The bit-field engine: fields inside and across 64-bit words, value kinds.
#include "culd/Relocations.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace culd;

TEST_CASE("insert and extract bits within one word", "[relocations]") {
    std::vector<uint8_t> w(16, 0xFF);
    insertBits(w.data(), 20, 32, 0x12345678);
    CHECK(extractBits(w.data(), 20, 32) == 0x12345678);
    CHECK(extractBits(w.data(), 0, 20) == 0xFFFFF); // neighbours untouched
    CHECK(extractBits(w.data(), 52, 12) == 0xFFF);
}

TEST_CASE("a field crossing the 64-bit boundary is split low-first", "[relocations]") {
    std::vector<uint8_t> w(16, 0);
    // R_CUDA_ABS47_34: 47 bits from bit 34 run into the second word.
    uint64_t v = 0x5555AAAA1234ull & ((1ull << 47) - 1);
    insertBits(w.data(), 34, 47, v);
    CHECK(extractBits(w.data(), 34, 47) == v);
    CHECK(extractBits(w.data(), 64, 17) == (v >> 30));
}

TEST_CASE("value kinds", "[relocations]") {
    culd_bit_action hi{0, 32, CULD_VK_HIADDR, 0};
    culd_bit_action lo{0, 32, CULD_VK_LOADDR, 0};
    culd_bit_action shift2{0, 14, CULD_VK_SHIFT2, 0};
    culd_bit_action shift8{34, 47, CULD_VK_SHIFT8, 10};
    culd_bit_action bank{0, 5, CULD_VK_CBANK, 0};
    culd_bit_action byte2{0, 8, CULD_VK_ADDR8_0 + 2, 16};
    CHECK(actionValue(hi, 0x1122334455667788ull, 0, 0) == 0x11223344);
    CHECK(actionValue(lo, 0x1122334455667788ull, 0, 0) == 0x55667788);
    CHECK(actionValue(shift2, 0x40, 0, 0) == 0x10);
    CHECK(actionValue(shift8, 0x400, 0, 0) == 1);
    CHECK(actionValue(bank, 0, 0, 3) == 3);
    CHECK(actionValue(byte2, 0xAABBCC, 0, 0) == 0xAA);
}
