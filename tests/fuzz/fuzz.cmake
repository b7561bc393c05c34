# Trace parser fuzzing (issue 6): a bounded deterministic smoke run in CTest,
# and with clang and -DPROGSIM_FUZZ=ON the libFuzzer target
# (run: build/bin/trace_parser_fuzz -max_total_time=60 tests/traces).
# regressions/: inputs libFuzzer found crashing once, kept as seeds.
add_executable(trace_parser_fuzz_smoke ${CMAKE_CURRENT_LIST_DIR}/TraceParserFuzz.cpp
                                       ${CMAKE_CURRENT_LIST_DIR}/FuzzSmokeMain.cpp)
target_link_libraries(trace_parser_fuzz_smoke PRIVATE progsim_trace)
add_test(NAME traces.fuzz_smoke
  COMMAND trace_parser_fuzz_smoke 300
          ${CMAKE_SOURCE_DIR}/tests/traces/isend_compute_wait.jsonl
          ${CMAKE_SOURCE_DIR}/tests/traces/ti/pingpong_isend.txt
          ${CMAKE_SOURCE_DIR}/tests/traces/ti/collectives.txt
          ${CMAKE_CURRENT_LIST_DIR}/regressions/header_format_not_a_string.jsonl)
set_tests_properties(traces.fuzz_smoke PROPERTIES LABELS unit TIMEOUT 120)

option(PROGSIM_FUZZ "Build the libFuzzer target trace_parser_fuzz (needs clang)" OFF)
if(PROGSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "PROGSIM_FUZZ needs clang (-DCMAKE_CXX_COMPILER=clang++)")
  endif()
  add_executable(trace_parser_fuzz ${CMAKE_CURRENT_LIST_DIR}/TraceParserFuzz.cpp)
  target_compile_options(trace_parser_fuzz PRIVATE -fsanitize=fuzzer,address)
  target_link_options(trace_parser_fuzz PRIVATE -fsanitize=fuzzer,address)
  target_link_libraries(trace_parser_fuzz PRIVATE progsim_trace)
endif()
