# An input holding several local functions of one name (an -r output of
# units with a unit-static function each): on sm_100+ nvlink patches every
# copy with the first copy's relocations. Where the copies' relocations
# differ, that patches the wrong instructions of the later copies; culd
# refuses, final link and -r alike, with no output.
# (Copies whose relocations agree are linked: corpus 147.)
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/lib/Refusals.cmake)
set(input ${SOURCE_DIR}/tests/inputs/unit-static-twins/twins.cubin)
set(out ${BINARY_DIR}/cli-unit-static-twins.cubin)
set(why "function 'helper' is defined more than once with different relocations; nvlink would patch every copy with the first one's")
culd_expect_refusal(${out} "twins.cubin: ${why}" ARGS -arch=sm_100 ${input})
culd_expect_refusal(${out} "twins.cubin: ${why}" ARGS -arch=sm_100 -r ${input})

# Copies whose .nv.info.<f> differ only in EXTERNS take the first copy's
# attributes, as nvlink finds those by name too (nvlink -r gives both copies
# of attrs.cubin the first one's EXTERNS entry for `ext`; corpus 193, 194).
# attrs.cubin's first copy also calls `ext`, so the copies' relocations
# differ: refused for that, after the attributes.
set(attrs ${SOURCE_DIR}/tests/inputs/unit-static-twins/attrs.cubin)
culd_expect_refusal(${out} "attrs.cubin: ${why}" ARGS -arch=sm_100 -r ${attrs})
