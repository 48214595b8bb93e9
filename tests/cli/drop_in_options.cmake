# Options nvcc and CMake pass to the device linker are accepted with
# nvlink's meaning (measured on nvlink 13.0, docs/nvlink-findings.md):
# --shared is a no-op, -maxrregcount only matters under LTO, -time writes the
# CSV headings (no rows without LTO), --tool-name names the linker's own
# tkinfo record, and host libraries on the line are ignored without a word.
set(work ${BINARY_DIR}/cli-drop-in-options)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
set(input ${SOURCE_DIR}/tests/fixtures/01-single-kernel/sm_80/k.cubin)
set(headings "source file name , phase name , phase input files , phase output file , arch , tool, metric , unit\n")

function(run_culd name)
  execute_process(COMMAND ${CULD} -arch=sm_80 ${ARGN} ${input} -o ${work}/${name}.cubin
    WORKING_DIRECTORY ${work} RESULT_VARIABLE rc OUTPUT_VARIABLE so ERROR_VARIABLE se)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name}: culd exited ${rc}:\n${se}")
  endif()
  set(stdout "${so}" PARENT_SCOPE)
  set(stderr "${se}" PARENT_SCOPE)
endfunction()

function(expect_same_output a b)
  file(SHA256 ${work}/${a}.cubin ha)
  file(SHA256 ${work}/${b}.cubin hb)
  if(NOT ha STREQUAL hb)
    message(FATAL_ERROR "${b}: output differs from ${a}'s")
  endif()
endfunction()

run_culd(plain)

# CMake's device link line: --shared, host libraries, -time from nvcc -time.
run_culd(cmake --shared -maxrregcount 32 -time timing.csv -lrt -lpthread -ldl -lcudart_static)
if(NOT stderr STREQUAL "")
  message(FATAL_ERROR "cmake: expected no messages, got:\n${stderr}")
endif()
expect_same_output(plain cmake)
file(READ ${work}/timing.csv table)
if(NOT table STREQUAL headings)
  message(FATAL_ERROR "-time: expected only the headings, got:\n${table}")
endif()
# A second link appends; the headings are written only into an empty file.
run_culd(again -time timing.csv)
file(READ ${work}/timing.csv table)
if(NOT table STREQUAL headings)
  message(FATAL_ERROR "-time: headings written twice:\n${table}")
endif()
run_culd(stdout -time -)
if(NOT stdout STREQUAL headings)
  message(FATAL_ERROR "-time -: expected the headings on stdout, got:\n${stdout}")
endif()

# A library that is not a host one is still worth an info.
run_culd(missing -lnotthere)
string(FIND "${stderr}" "culd info : cannot find library -lnotthere" at)
if(at EQUAL -1)
  message(FATAL_ERROR "-lnotthere: expected an info, got:\n${stderr}")
endif()

# --tool-name names the linker's own record.
run_culd(toolname --tool-name my-linker)
file(STRINGS ${work}/toolname.cubin names REGEX "my-linker")
if(NOT names)
  message(FATAL_ERROR "--tool-name: 'my-linker' not in the output")
endif()
file(STRINGS ${work}/plain.cubin names REGEX "my-linker")
if(names)
  message(FATAL_ERROR "plain link names 'my-linker'")
endif()

# -time names a file it cannot create: nvlink's fatal error.
execute_process(COMMAND ${CULD} -arch=sm_80 -time ${work}/no/such/dir/t.csv ${input}
  -o ${work}/bad.cubin RESULT_VARIABLE rc ERROR_VARIABLE se OUTPUT_QUIET)
string(FIND "${se}" "culd error : Cannot open file '${work}/no/such/dir/t.csv'" at)
if(rc EQUAL 0 OR at EQUAL -1 OR EXISTS ${work}/bad.cubin)
  message(FATAL_ERROR "-time into a missing folder: exit ${rc}, got:\n${se}")
endif()
