# Unit tests of the trace format, reader (its flat event scan), writer and SimGrid TI import (traces/).
# AttachedLayout is built into the replay module (lib/progsim-replay.so), not
# progsim_trace: its one source is compiled here too.
add_executable(traces_unit_tests ${CMAKE_CURRENT_LIST_DIR}/TraceFormatTest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/FlatEventScanTest.cpp
  ${CMAKE_CURRENT_LIST_DIR}/AttachedLayoutTest.cpp ${PROJECT_SOURCE_DIR}/traces/replay/AttachedLayout.cpp)
target_link_libraries(traces_unit_tests PRIVATE progsim_trace GTest::gtest_main)
gtest_discover_tests(traces_unit_tests PROPERTIES LABELS unit)
