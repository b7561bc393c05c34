# progsim compare's metrics and output (issue 18), on the Iallreduce overlap
# example: numbers asserted in its JSON/CSV, the program output it shows.
foreach(mode overlap output)
  add_test(NAME compare.iallreduce_overlap.${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/compare/check_compare.py
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/iallreduce_overlap ${mode})
  set_tests_properties(compare.iallreduce_overlap.${mode} PROPERTIES LABELS program)
endforeach()
