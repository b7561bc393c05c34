# The teaching catalogue: each examples/NAME/example.json is a test that
# compiles the example and checks its expected outcome under each policy.
file(GLOB progsim_example_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/examples/*/example.json)
foreach(file ${progsim_example_files})
  get_filename_component(dir ${file} DIRECTORY)
  get_filename_component(name ${dir} NAME)
  add_test(NAME examples.${name} COMMAND ${PROGSIM_CLI} examples run ${name})
  set_tests_properties(examples.${name} PROPERTIES LABELS program
    ENVIRONMENT "PROGSIM_EXAMPLES_DIR=${PROJECT_SOURCE_DIR}/examples")
endforeach()
add_test(NAME examples.list COMMAND ${PROGSIM_CLI} examples)
set_tests_properties(examples.list PROPERTIES LABELS program
  PASS_REGULAR_EXPRESSION "bsend_shared_flag +MPI-4\\.1 Example 12\\.x.*unsafe_send_order +both ranks MPI_Send")
add_test(NAME examples.unknown COMMAND ${PROGSIM_CLI} examples run no_such_example)
set_tests_properties(examples.unknown PROPERTIES LABELS program
  PASS_REGULAR_EXPRESSION "progsim: error: no example .no_such_example. \\(progsim examples lists them\\)")
