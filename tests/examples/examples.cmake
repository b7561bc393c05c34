# The teaching catalogue: each examples/NAME/example.json is a test that
# compiles the example and checks its expected outcome under each policy.
# 'examples run' exits as 'progsim compare' does when every outcome is the
# expected one: 0 when every run completed, else the status of the first
# policy (in example.json's order) whose run did not (3 for a deadlock).
set(example_exit_deadlock 3)
set(example_exit_stuck 4)
set(example_exit_erroneous 5)
file(GLOB progsim_example_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/*/example.json)
foreach(file ${progsim_example_files})
  get_filename_component(dir ${file} DIRECTORY)
  get_filename_component(name ${dir} NAME)
  file(READ ${file} example_json)
  string(JSON policy_count LENGTH "${example_json}" expected)
  math(EXPR last "${policy_count} - 1")
  set(example_exit 0)
  foreach(i RANGE ${last})
    string(JSON policy MEMBER "${example_json}" expected ${i})
    string(JSON outcome GET "${example_json}" expected ${policy} outcome)
    if(example_exit EQUAL 0 AND NOT outcome STREQUAL "completed")
      set(example_exit ${example_exit_${outcome}})
    endif()
  endforeach()
  add_test(NAME examples.${name}
    COMMAND program_test --progsim ${PROGSIM_CLI} --command examples --expect-exit ${example_exit}
            --stdout-regex "expected \\(" -- run ${name})
  set_tests_properties(examples.${name} PROPERTIES LABELS program
    ENVIRONMENT "PROGSIM_EXAMPLES_DIR=${PROJECT_SOURCE_DIR}/examples")
endforeach()
add_test(NAME examples.list COMMAND ${PROGSIM_CLI} examples)
set_tests_properties(examples.list PROPERTIES LABELS program
  PASS_REGULAR_EXPRESSION "bsend_shared_flag +MPI-4\\.1 Example 12\\.x.*unsafe_send_order +both ranks MPI_Send")
add_test(NAME examples.unknown COMMAND ${PROGSIM_CLI} examples run no_such_example)
set_tests_properties(examples.unknown PROPERTIES LABELS program
  PASS_REGULAR_EXPRESSION "progsim: error: no example .no_such_example. \\(progsim examples lists them\\)")
# With the user's --reports folder, the expectations are checked against the
# reports there (they said "MISMATCH, no report" before), which are kept.
add_test(NAME examples.reports_folder
  COMMAND bash -c "rm -rf \"$1\" && mkdir -p \"$1\" && \"$0\" examples run hello --reports \"$1\" && test -s \"$1/weak.json\" && test -s \"$1/ideal.json\""
          ${PROGSIM_CLI} ${CMAKE_CURRENT_BINARY_DIR}/examples-reports)
set_tests_properties(examples.reports_folder PROPERTIES LABELS program
  ENVIRONMENT "PROGSIM_EXAMPLES_DIR=${PROJECT_SOURCE_DIR}/examples"
  PASS_REGULAR_EXPRESSION "  weak     completed: ok\n  ideal    completed: ok\n"
  FAIL_REGULAR_EXPRESSION "MISMATCH")
