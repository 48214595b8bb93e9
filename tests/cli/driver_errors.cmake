# Bad command lines and bad inputs: a clear message, a non-zero exit, and no
# output file left behind.
set(work ${BINARY_DIR}/cli-driver-errors)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
file(WRITE ${work}/garbage.cubin "this is not an ELF file at all, but it is long enough to be read")
file(WRITE ${work}/empty.cubin "")
# Shorter than the 56-byte header nvlink reads from every non-archive input.
file(WRITE ${work}/short.o "hello world\n")

function(expect_failure name expected)
  set(out ${work}/out-${name}.cubin)
  execute_process(COMMAND ${CULD} ${ARGN} -o ${out}
    WORKING_DIRECTORY ${work} RESULT_VARIABLE rc OUTPUT_VARIABLE so ERROR_VARIABLE se)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${name}: culd succeeded, expected failure")
  endif()
  string(FIND "${se}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${name}: expected '${expected}' in stderr, got:\n${se}")
  endif()
  if(EXISTS ${out})
    message(FATAL_ERROR "${name}: output file left behind")
  endif()
  file(GLOB temps ${work}/*culd-tmp*)
  if(temps)
    message(FATAL_ERROR "${name}: temporary file left behind: ${temps}")
  endif()
endfunction()

expect_failure(unknown-option "culd error : Unknown option '--frobnicate'" -arch=sm_90 --frobnicate garbage.cubin)
expect_failure(not-yet "culd error : option '--uidx-file' is not supported yet" -arch=sm_90 --uidx-file=x.uidx garbage.cubin)
expect_failure(bad-arch "culd error : invalid value 'sm_9x' for option '--arch'" -arch=sm_9x garbage.cubin)
expect_failure(no-arch "culd error : no target architecture given" garbage.cubin)
expect_failure(no-plugin "culd error : no plugin serves sm_999" -arch=sm_999 garbage.cubin)
expect_failure(not-elf "culd error : garbage.cubin: not a cubin" -arch=sm_90 garbage.cubin)
expect_failure(empty "culd error : empty.cubin: empty file, not a cubin" -arch=sm_90 empty.cubin)
expect_failure(missing "culd error : nothere.cubin: cannot open" -arch=sm_90 nothere.cubin)
expect_failure(short-input "culd error : Could not open input file 'short.o'" -arch=sm_90 short.o)
# nvlink exits 1 on a fatal error like this one (255 is for reported errors
# such as undefined references; the corpus compares those with nvlink.rc).
execute_process(COMMAND ${CULD} -arch=sm_90 short.o -o ${work}/out-short-rc.cubin
  WORKING_DIRECTORY ${work} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "short-input: exit ${rc}, nvlink exits 1")
endif()

# Only LTO IR for the target: nvlink's refusal ("LTO objects found, use -dlto").
expect_failure(lto "culd error : LTO objects found, use -dlto" -arch=sm_90
  ${SOURCE_DIR}/tests/inputs/host-lto.o)

# -r -g with extern __shared__ arrays (nvlink's externsharedinstance rewrite
# is measured without -g only) is refused rather than written differently;
# without -g it links (corpus 139).
file(COPY ${SOURCE_DIR}/tests/fixtures/15-extern-shared/sm_90/main.cubin
          ${SOURCE_DIR}/tests/fixtures/15-extern-shared/sm_90/reduce.cubin DESTINATION ${work})
expect_failure(relocatable-extern-shared
  "extern __shared__ array 'dyn_i' (used by '_Z12k_dyn_staticPi') in a relocatable link (-r) with -g is not supported yet"
  -arch=sm_90 -r -g main.cubin reduce.cubin)

