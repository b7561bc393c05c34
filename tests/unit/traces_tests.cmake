# Unit tests of the trace format, reader, writer and SimGrid TI import (traces/).
add_executable(traces_unit_tests ${CMAKE_CURRENT_LIST_DIR}/TraceFormatTest.cpp)
target_link_libraries(traces_unit_tests PRIVATE progsim_trace GTest::gtest_main)
gtest_discover_tests(traces_unit_tests PROPERTIES LABELS unit)
