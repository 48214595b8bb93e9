# A known gap passes only when it fails cleanly (tests/corpus/case_verdict.cmake):
# both corpus runners are run here on a fake fixture with fake culd and
# culd-diff programs (shell scripts), and must pass or fail as listed.
set(work ${BINARY_DIR}/cli-known-gap-verdict)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work}/fixture ${work}/host-fixture ${work}/bin)

# Cubin corpus fixture: nvlink linked a.cubin into nvlink.cubin.
file(WRITE ${work}/fixture/cmd "nvlink -arch=sm_80 a.cubin -o nvlink.cubin\n")
file(WRITE ${work}/fixture/nvlink.stderr "")
file(WRITE ${work}/fixture/nvlink.cubin "reference")
# Host corpus fixture: one nvlink command, which succeeded.
file(WRITE ${work}/host-fixture/cmd "nvlink -arch=sm_80 a.o -o nvlink.cubin\n")
file(WRITE ${work}/host-fixture/nvlink.rc "0\n")
file(WRITE ${work}/host-fixture/nvlink.stderr "")
file(WRITE ${work}/host-fixture/nvlink.cubin "reference")

# Fake programs. A fake culd writes its -o file and then behaves as named.
function(fake name body)
  file(WRITE ${work}/bin/${name} "#!/bin/sh\n${body}\n")
  file(CHMOD ${work}/bin/${name} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endfunction()
set(write_output "while [ $# -gt 0 ]; do [ \"$1\" = -o ] && : > \"$2\"; shift; done")
fake(culd-ok "${write_output}\nexit 0")
fake(culd-crash "kill -SEGV $$")
fake(culd-internal "echo 'culd error : internal error: vector::_M_range_check' >&2\nexit 1")
fake(culd-refuses "echo 'culd error : a.cubin: section .x: cannot be linked' >&2\nexit 1")
fake(diff-same "echo IDENTICAL\nexit 0")
fake(diff-different "echo DIFFERENT\nexit 1")
fake(diff-error "echo 'culd-diff: cannot read nvlink.cubin' >&2\nexit 2")
fake(diff-crash "kill -SEGV $$")

# run(<corpus|host> <culd> <culd-diff> <known-gap ON|OFF> <pass|fail>)
function(run kind culd diff known_gap want)
  if(kind STREQUAL "corpus")
    set(args -DFIXTURE_DIR=${work}/fixture -DOUT_DIR=${work}/out -DEXPECT=ok
      -P ${SOURCE_DIR}/tests/corpus/run_case.cmake)
  else()
    set(args -DFIXTURE=${work}/host-fixture -DOUT=${work}/out -DLIB=${work}
      -P ${SOURCE_DIR}/tests/host-corpus/run_case.cmake)
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -DCULD=${work}/bin/${culd}
    -DCULD_DIFF=${work}/bin/${diff} -DKNOWN_GAP=${known_gap} ${args}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(got fail)
  if(rc EQUAL 0)
    set(got pass)
  endif()
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "${kind} case, culd=${culd}, culd-diff=${diff}, known gap ${known_gap}: "
      "${got}ed, expected to ${want}\n${out}${err}")
  endif()
endfunction()

foreach(kind corpus host)
  # Ordinary cases.
  run(${kind} culd-ok diff-same OFF pass)
  run(${kind} culd-ok diff-different OFF fail)
  run(${kind} culd-crash diff-same OFF fail)
  # Known gaps: only a clean failure passes.
  run(${kind} culd-ok diff-different ON pass)
  run(${kind} culd-refuses diff-same ON pass)
  run(${kind} culd-ok diff-same ON fail)       # fixed: delete the line
  run(${kind} culd-crash diff-same ON fail)    # a signal
  run(${kind} culd-internal diff-same ON fail) # an internal error
  run(${kind} culd-ok diff-error ON fail)      # culd-diff's own error
  run(${kind} culd-ok diff-crash ON fail)
endforeach()
