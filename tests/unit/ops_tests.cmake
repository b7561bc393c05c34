# Unit tests of the reduction operations engine (mpi_model/ops).
# Include from the top-level CMakeLists.txt after add_subdirectory(mpi_model/ops)
# and enable_testing():
#   include(tests/unit/ops_tests.cmake)
if(NOT TARGET GTest::gtest_main)
  find_package(GTest REQUIRED)
endif()
include(GoogleTest)

add_executable(ops_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/ReductionOpTest.cpp
)
target_link_libraries(ops_unit_tests PRIVATE progsim_ops GTest::gtest_main)
target_compile_options(ops_unit_tests PRIVATE
  $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra>
)
gtest_discover_tests(ops_unit_tests PROPERTIES LABELS unit)
