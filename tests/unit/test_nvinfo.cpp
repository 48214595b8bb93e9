// EIATTR/EICOMPAT tables, the .nv.info TLV walker and serializer, and the
// cubin header/metadata decoders (CubinInfo).
#include "culd/CubinInfo.h"
#include "culd/Diagnostics.h"
#include "culd/NvInfo.h"

#include <catch2/catch.hpp>

#include <vector>

using namespace culd;

namespace {

ByteView view(const std::vector<uint8_t> &bytes) { return ByteView{bytes.data(), bytes.size()}; }

const SectionContext kWhere{"k.cubin", ".nv.info._Z4kernPii"};

std::string parseError(const std::vector<uint8_t> &bytes) {
    try {
        parseNvInfo(view(bytes), kWhere);
    } catch (const FatalError &e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("nvinfo: real sm_90 records decode", "[nvinfo]") {
    std::vector<uint8_t> bytes = {0x04, 0x2F, 0x08, 0x00, 0x15, 0x00, 0x00, 0x00, 0x18, 0x00,
                                  0x00, 0x00, 0x03, 0x1B, 0xFF, 0x00, 0x02, 0x4C, 0x01, 0x00};
    std::vector<NvInfoRecord> records = parseNvInfo(view(bytes), kWhere);
    REQUIRE(records.size() == 3);

    CHECK(records[0].format == EIFMT_SVAL);
    CHECK(eiattrName(records[0].code) == "EIATTR_REGCOUNT");
    CHECK(records[0].value == 8);
    REQUIRE(records[0].wordCount() == 2);
    CHECK(records[0].word(0) == 0x15);
    CHECK(records[0].word(1) == 24);
    CHECK(symbolWordOffsets(records[0]) == std::vector<uint32_t>{0});

    CHECK(records[1].format == EIFMT_HVAL);
    CHECK(eiattrName(records[1].code) == "EIATTR_MAXREG_COUNT");
    CHECK(records[1].value == 0xFF);
    CHECK(records[1].offset == 12);
    CHECK(records[1].payload.empty());

    CHECK(records[2].format == EIFMT_BVAL);
    CHECK(eiattrName(records[2].code) == "EIATTR_NUM_BARRIERS");
    CHECK(records[2].value == 1);
}

TEST_CASE("nvinfo: malformed records give exact messages", "[nvinfo]") {
    CHECK(parseError({0x04, 0x2F}) == "k.cubin: section '.nv.info._Z4kernPii': truncated record "
                                      "at offset 0x0 (2 bytes left, need 4)");
    CHECK(parseError({0x03, 0x1B, 0xFF, 0x00, 0x04, 0x2F, 0x08, 0x00, 0x15, 0x00}) ==
          "k.cubin: section '.nv.info._Z4kernPii': payload of EIATTR_REGCOUNT at offset 0x4 "
          "(8 bytes) runs past end of section (10 bytes)");
    CHECK(parseError({0x03, 0x1B, 0xFF, 0x00, 0x07, 0x2F, 0x00, 0x00}) ==
          "k.cubin: section '.nv.info._Z4kernPii': unknown record format 0x07 at offset 0x4");
    CHECK(parseError({0x00, 0x2F, 0x00, 0x00}) ==
          "k.cubin: section '.nv.info._Z4kernPii': unknown record format 0x00 at offset 0x0");
}

TEST_CASE("nvinfo: serializer round-trips and pads", "[nvinfo]") {
    std::vector<uint8_t> bytes = {0x04, 0x2F, 0x08, 0x00, 0x15, 0x00, 0x00, 0x00, 0x18,
                                  0x00, 0x00, 0x00, 0x03, 0x1B, 0xFF, 0x00, 0x02, 0x4C,
                                  0x01, 0x00, 0x01, 0x3E, 0x00, 0x00, 0x04, 0x0F, 0x04,
                                  0x00, 0x13, 0x00, 0x00, 0x00};
    CHECK(serializeNvInfo(parseNvInfo(view(bytes), kWhere)) == bytes);

    std::vector<uint8_t> out;
    const uint8_t odd[3] = {1, 2, 3};
    appendSvalRecord(out, 0x5A, odd, 3);
    CHECK(out == std::vector<uint8_t>{0x04, 0x5A, 0x03, 0x00, 1, 2, 3, 0});
    std::vector<NvInfoRecord> back = parseNvInfo(view(out), kWhere);
    REQUIRE(back.size() == 1);
    CHECK(back[0].payload.size == 3);

    out.clear();
    appendSvalRecord(out, 0x37, std::vector<uint32_t>{130});
    appendValueRecord(out, EIFMT_HVAL, 0x5F, 0x0101);
    CHECK(out == std::vector<uint8_t>{0x04, 0x37, 0x04, 0x00, 0x82, 0, 0, 0, 0x03, 0x5F, 0x01,
                                      0x01});
}

TEST_CASE("nvinfo: tables", "[nvinfo]") {
    for (unsigned code = 0; code <= EIATTR_LAST; ++code)
        CHECK(eiattrInfo(static_cast<uint8_t>(code))->code == code);
    CHECK(eiattrInfo(0x61) == nullptr);
    CHECK(eiattrName(0x61) == "EIATTR_0x61");
    CHECK(eiattrName(0x4F) == "EIATTR_AT_ENTRY_FRAGEMENTS");
    CHECK(eiattrInfo(0x0F)->symbols == EiSymbols::EveryWord);
    CHECK(eicompatName(9) == "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET");
    CHECK(eicompatName(10) == "EICOMPAT_ATTR_0x0a");
    CHECK(eiFormatName(4) == "EIFMT_SVAL");
    CHECK(eiFormatName(9) == "EIFMT_0x09");
}

TEST_CASE("nvinfo: KPARAM_INFO and EXTERNS payloads", "[nvinfo]") {
    // From a CUDA 11.8 sm_70 cubin: param 1, offset 8, 4 bytes, cbank 0x1f.
    std::vector<uint8_t> bytes = {0x04, 0x17, 0x0C, 0x00, 0, 0, 0, 0, 0x01, 0x00, 0x08, 0x00,
                                  0x00, 0xF0, 0x11, 0x00, 0x04, 0x0F, 0x08, 0x00, 0x13, 0,
                                  0,    0,    0x07, 0,    0,    0};
    std::vector<NvInfoRecord> records = parseNvInfo(view(bytes), kWhere);
    REQUIRE(records.size() == 2);
    KparamInfo k = decodeKparamInfo(records[0], kWhere);
    CHECK(k.ordinal == 1);
    CHECK(k.offset == 8);
    CHECK(k.size == 4);
    CHECK(k.cbank == 0x1F);
    CHECK(k.isCbank);
    CHECK(symbolWordOffsets(records[1]) == std::vector<uint32_t>{0, 4});
    CHECK_THROWS_WITH(decodeKparamInfo(records[1], kWhere),
                      "k.cubin: section '.nv.info._Z4kernPii': EIATTR_EXTERNS at offset 0x10 "
                      "has a payload of 8 bytes, expected 12");
}

TEST_CASE("cubininfo: e_flags of CUDA 13 (ABI 8) cubins", "[cubininfo]") {
    CudaElfFlags sm90 = decodeElfFlags(0x41, 8, 0x6005a04);
    CHECK(sm90.encoding == ElfFlagsEncoding::V8);
    CHECK(sm90.sm == 90);
    CHECK(sm90.lowByte == 0x04);
    CHECK(sm90.cuinfoIndex == 6);
    CHECK(sm90.unknownBits == 0);
    CHECK(describeElfFlags(sm90) == "sm_90, low 0x04, SASS, cuinfo section 6");

    CudaElfFlags sm100 = decodeElfFlags(0x41, 8, 0x6006402);
    CHECK(sm100.sm == 100);
    CHECK(sm100.lowByte == 0x02);
    CHECK(describeElfFlags(sm100) == "sm_100, low 0x02, MERCURY, cuinfo section 6");

    CudaElfFlags sm75 = decodeElfFlags(0x41, 8, 0x6004b04);
    CHECK(sm75.sm == 75);
    CHECK(sm75.cuinfoIndex == 6);
}

TEST_CASE("cubininfo: e_flags of CUDA 11.8 (ABI 7) cubins", "[cubininfo]") {
    // nvcc 11.8 -arch=sm_70 -rdc=true -cubin
    CudaElfFlags sm70 = decodeElfFlags(0x33, 7, 0x460546);
    CHECK(sm70.encoding == ElfFlagsEncoding::V7);
    CHECK(sm70.sm == 70);
    CHECK(sm70.virtualSm == 70);
    CHECK(sm70.unknownBits == 0);
    CHECK(describeElfFlags(sm70) ==
          "sm_70, virtual sm_70, EF_CUDA_TEXMODE_UNIFIED, EF_CUDA_64BIT_ADDRESS");
    CHECK(decodeElfFlags(0x33, 7, 0x320532).sm == 50);
}

TEST_CASE("cubininfo: names", "[cubininfo]") {
    CHECK(sectionTypeName(0x70000000) == "SHT_CUDA_INFO");
    CHECK(sectionTypeName(0x70000064) == "SHT_CUDA_CONSTANT0");
    CHECK(sectionTypeName(0x70000067) == "SHT_CUDA_CONSTANT3");
    CHECK(sectionTypeName(0x70000083) == "SHT_CUDA_MERC_INFO");
    CHECK(sectionTypeName(0x70000086) == "SHT_CUDA_COMPAT");
    CHECK(sectionTypeName(0x70000099) == "LOPROC+0x99");
    CHECK(sectionTypeName(4) == "SHT_RELA");
    CHECK(sectionFlagsText(0x6) == "AX");
    CHECK(sectionFlagsText(0x100006) == "AX bar=1");
    CHECK(sectionFlagsText(0x10000042) == "AI MERC");
    CHECK(sectionFlagsText(0x01000040) == "I +0x1000000");
    CHECK(symbolOtherText(0x10) == "DEFAULT entry");
    CHECK(symbolOtherText(0x81) == "INTERNAL constant");
    CHECK(symbolOtherText(0xA0) == "DEFAULT reserved_shared");
    CHECK(symbolTypeName(13) == "CUDA_OBJECT");
}

TEST_CASE("cubininfo: notes, callgraph, prototypes, rel.action", "[cubininfo]") {
    const SectionContext where{"a.cubin", ".note.nv.cuinfo"};
    std::vector<uint8_t> cuinfo = {0x0c, 0, 0, 0, 0x08, 0, 0, 0, 0xe8, 0x03, 0, 0,
                                   'N', 'V', 'I', 'D', 'I', 'A', ' ', 'C', 'o', 'r', 'p', 0,
                                   0x02, 0, 0x5a, 0, 0x82, 0, 0, 0};
    std::vector<ElfNote> notes = parseNotes(view(cuinfo), where);
    REQUIRE(notes.size() == 1);
    CHECK(notes[0].owner == "NVIDIA Corp");
    CuInfoNote c = decodeCuInfo(notes[0], where);
    CHECK(c.version == 2);
    CHECK(c.sm == 90);
    CHECK(c.cudaVersion == 130);
    cuinfo.resize(30);
    CHECK_THROWS_WITH(parseNotes(view(cuinfo), where),
                      "a.cubin: section '.note.nv.cuinfo': note at offset 0x0 runs past end of "
                      "section");

    std::vector<uint8_t> graph = {0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 17, 0, 0, 0, 19, 0, 0, 0,
                                  0, 0, 0, 0, 0xfc, 0xff, 0xff, 0xff};
    std::vector<CallGraphEntry> entries = parseCallGraph(view(graph), where);
    REQUIRE(entries.size() == 3);
    CHECK(entries[0].isMarker);
    CHECK(entries[1].group == CallGraphGroup::DirectCalls);
    CHECK(entries[1].first == 17);
    CHECK(entries[1].second == 19);
    CHECK(entries[2].group == CallGraphGroup::FunctionPointers);
    graph.resize(12);
    CHECK_THROWS_WITH(parseCallGraph(view(graph), where),
                      "a.cubin: section '.note.nv.cuinfo': size 12 is not a multiple of 8");

    std::vector<uint8_t> actions = {0x73, 0, 0, 0, 0, 0, 0, 0, 0x00, 0x00, 0x00, 0x11, 0x25, 0x00, 0x05, 0x36};
    RelActionTable table = parseRelAction(view(actions), where);
    CHECK(table.firstType == 0x73);
    REQUIRE(table.records.size() == 1);
    CHECK(table.records[0].type == 0x73);
    CHECK(table.records[0].slots[0].width == 17);
    CHECK(table.records[0].slots[0].destBit == 37);
    CHECK(table.records[0].slots[1].width == 5);
    CHECK(table.records[0].slots[1].destBit == 54);
    CHECK(relActionKindName(0) == "EIVALUE_SYM_KIND_ADDR");
}
