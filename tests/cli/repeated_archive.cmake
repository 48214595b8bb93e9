# nvlink reads an archive named twice on the command line (by path, through
# a symbolic link or -l) only once, so its members do not conflict with
# themselves: `nvlink -arch=sm_80 libundef-sm80.a ./libundef-sm80.a` reports
# only the undefined reference (exit 255), no multiple definition.
set(inputs ${SOURCE_DIR}/tests/inputs)
set(out ${BINARY_DIR}/cli-repeated-archive.cubin)
execute_process(COMMAND ${CULD} -arch=sm_80 libundef-sm80.a ./libundef-sm80.a -L. -lundef-sm80
  -o ${out} WORKING_DIRECTORY ${inputs} RESULT_VARIABLE rc ERROR_VARIABLE se)
if(NOT rc EQUAL 255 OR se MATCHES "Multiple definition" OR
   NOT se MATCHES "^culd error : Undefined reference to '_Z7missingi' in 'libundef-sm80.a:undef.o'[^\n]*\n$")
  message(FATAL_ERROR "a repeated archive: exit ${rc}, stderr:\n${se}")
endif()
