# One host-mode corpus test: replays each nvlink command of
# tests/host-fixtures/<case>/<arch>/cmd with culd in nvlink's place (host
# objects, archives, -lcudadevrt, --register-link-binaries), then requires
# every cubin to be EQUIVALENT to nvlink's (culd-diff) and the .reg.c file to
# be byte-identical.
#   -DCULD=... -DCULD_DIFF=... -DFIXTURE=<dir> -DOUT=<dir> -DLIB=<dir with libcudadevrt.a>
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
file(MAKE_DIRECTORY ${OUT})
file(STRINGS ${FIXTURE}/cmd lines)
set(failures "")
foreach(line IN LISTS lines)
  string(REPLACE "@CUDA_LIB@" "${LIB}" line "${line}")
  string(REGEX MATCH "-o (nvlink[^ ]*\\.cubin)" _ "${line}")
  set(expected ${CMAKE_MATCH_1})
  string(REPLACE "nvlink" "culd" produced "${expected}")
  string(REPLACE "-o ${expected}" "-o ${OUT}/${produced}" line "${line}")
  string(REPLACE "--register-link-binaries=nvlink.reg.c" "--register-link-binaries=${OUT}/culd.reg.c" line "${line}")
  separate_arguments(args UNIX_COMMAND "${line}")
  list(REMOVE_AT args 0) # argv0 "nvlink"
  execute_process(COMMAND ${CULD} ${args} WORKING_DIRECTORY ${FIXTURE}
    RESULT_VARIABLE rc OUTPUT_VARIABLE so ERROR_VARIABLE se)
  message(STATUS "culd ${args} -> ${rc}")
  if(NOT rc EQUAL 0)
    list(APPEND failures "culd failed (${rc}) for ${expected}: ${se}")
    continue()
  endif()
  execute_process(COMMAND ${CULD_DIFF} ${OUT}/${produced} ${FIXTURE}/${expected}
    RESULT_VARIABLE drc OUTPUT_VARIABLE dout ERROR_VARIABLE derr)
  if(NOT drc EQUAL 0)
    list(APPEND failures "${expected}: ${dout}${derr}")
  endif()
endforeach()
if(EXISTS ${FIXTURE}/nvlink.reg.c)
  file(READ ${FIXTURE}/nvlink.reg.c want)
  if(NOT EXISTS ${OUT}/culd.reg.c)
    list(APPEND failures "no --register-link-binaries file written")
  else()
    file(READ ${OUT}/culd.reg.c got)
    if(NOT got STREQUAL want)
      list(APPEND failures "reg.c differs:\n${got}\nnvlink:\n${want}")
    endif()
  endif()
endif()
if(failures)
  string(REPLACE ";" "\n" text "${failures}")
  message(FATAL_ERROR "${FIXTURE}:\n${text}")
endif()
