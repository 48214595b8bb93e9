# --gen-host-linker-script: lcs-aug writes nvlink's fragment byte for byte
# (to -o or stdout); lcs-abs writes the host ld's default script then the
# same fragment.
set(work ${BINARY_DIR}/cli-host-linker-script)
file(MAKE_DIRECTORY ${work})
file(READ ${SOURCE_DIR}/tests/cli/expected/lcs-aug.ld fragment)

execute_process(COMMAND ${CULD} -ghls=lcs-aug -o ${work}/aug.ld RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ ${work}/aug.ld aug)
if(NOT rc EQUAL 0 OR NOT aug STREQUAL fragment)
  message(FATAL_ERROR "lcs-aug to a file: rc=${rc} ${err}\n${aug}")
endif()

execute_process(COMMAND ${CULD} --gen-host-linker-script=lcs-aug RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0 OR NOT out STREQUAL fragment)
  message(FATAL_ERROR "lcs-aug to stdout: rc=${rc}\n${out}")
endif()

find_program(LD ld)
find_program(GCC gcc)
if(LD AND GCC)
  execute_process(COMMAND ${CULD} --gen-host-linker-script=lcs-abs -o ${work}/abs.ld
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  file(READ ${work}/abs.ld abs)
  string(LENGTH "${abs}" n)
  string(LENGTH "${fragment}" m)
  math(EXPR head "${n} - ${m}")
  string(SUBSTRING "${abs}" ${head} -1 tail)
  string(SUBSTRING "${abs}" 0 ${head} script)
  if(NOT rc EQUAL 0 OR NOT tail STREQUAL fragment)
    message(FATAL_ERROR "lcs-abs: rc=${rc} ${err}: does not end with the fragment")
  endif()
  string(FIND "${script}" "/* Script for" at)
  string(FIND "${script}" "SECTIONS" sections)
  if(NOT at EQUAL 0 OR sections EQUAL -1)
    message(FATAL_ERROR "lcs-abs: does not start with ld's default script:\n${script}")
  endif()
endif()

execute_process(COMMAND ${CULD} --gen-host-linker-script=lcs-xyz RESULT_VARIABLE rc ERROR_VARIABLE err)
string(FIND "${err}" "invalid value 'lcs-xyz'" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "bad mode accepted: ${err}")
endif()
