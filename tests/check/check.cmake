# progsim check (issue 16): the verdicts the progress texts give for their
# seed examples, found by running every policy and implementation freedom.
foreach(case head_to_head example_12x figure33 hello usage)
  add_test(NAME check.command.${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check/check_command.py
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR} ${case})
  set_tests_properties(check.command.${case} PROPERTIES LABELS program)
endforeach()
