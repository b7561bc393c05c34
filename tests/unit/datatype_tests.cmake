# Unit tests of the datatype engine (mpi_model/datatype). Include this file
# from the tests CMakeLists once GoogleTest is found and the progsim_datatype
# target exists; it only uses its own directory, so any includer works.
include(GoogleTest)
if(NOT TARGET GTest::gtest_main)
  find_package(GTest REQUIRED)
endif()

add_executable(datatype_unit_tests
  ${CMAKE_CURRENT_LIST_DIR}/DatatypeTest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DatatypeArrayTest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DatatypeElementsTest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DatatypePackTest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/DatatypeRandomTest.cpp
)
target_link_libraries(datatype_unit_tests PRIVATE progsim_datatype GTest::gtest_main)
target_compile_options(datatype_unit_tests PRIVATE
  $<$<CXX_COMPILER_ID:GNU,Clang,AppleClang>:-Wall -Wextra>
)
gtest_discover_tests(datatype_unit_tests)
