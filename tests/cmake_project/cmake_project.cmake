# A CMake MPI project's own ctest suite run inside progsim (issue 21).
add_test(NAME cmake_project.ctest_two_policies
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/ctest_two_policies.sh ${CMAKE_BINARY_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/cmake_project/ctest_two_policies)
set_tests_properties(cmake_project.ctest_two_policies PROPERTIES
  LABELS wrappers TIMEOUT 180 ENVIRONMENT "CMAKE=${CMAKE_COMMAND}")
