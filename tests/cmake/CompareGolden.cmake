# compare_golden(<text> <expected file> <actual file> <ok var>): <ok var> is
# TRUE when <text> equals the golden file. Otherwise <text> is written to
# <actual file> for inspection and a SEND_ERROR names both files. With
# -DUPDATE=ON the golden file is rewritten instead.
function(compare_golden text expected_file actual_file ok_var)
  set(${ok_var} TRUE PARENT_SCOPE)
  if(UPDATE)
    file(WRITE "${expected_file}" "${text}")
    return()
  endif()
  file(READ "${expected_file}" expected)
  if(NOT text STREQUAL expected)
    file(WRITE "${actual_file}" "${text}")
    message(SEND_ERROR "output differs from ${expected_file}; actual output in ${actual_file}")
    set(${ok_var} FALSE PARENT_SCOPE)
  endif()
endfunction()
