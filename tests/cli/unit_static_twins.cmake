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

# Copies whose .nv.info.<f> differ (one lists an external function in
# EXTERNS): nvlink finds those by name too, and its choice there is not
# measured (difftest seed 88001, sm_100/sm_120 two-step with the device
# runtime, was different, exit 0). Checked before the relocations.
set(attrs ${SOURCE_DIR}/tests/inputs/unit-static-twins/attrs.cubin)
set(why "function 'helper' is defined more than once with different attributes (.nv.info); nvlink finds them by name, which culd does not model here")
culd_expect_refusal(${out} "attrs.cubin: ${why}" ARGS -arch=sm_100 -r ${attrs})
