# The HTML report and figures of progsim compare at 2, 16 and 64 ranks
# (issue 18): the page's data, bounds and determinism (html.report.*), and
# headless Chromium loading it, with the load time issue 18 asks for printed
# and recorded (html.chromium.*, skipped when chromium is not installed).
set(html_program_deadlock ${PROGSIM_TEST_PROGRAM_DIR}/bsend_shared_flag)
set(html_program_overlap16 ${PROGSIM_TEST_PROGRAM_DIR}/iallreduce_overlap)
set(html_program_scale64 ${PROGSIM_TEST_PROGRAM_DIR}/allreduces_then_sleep 200)
set(html_program_zoom64 ${html_program_scale64})
set(html_program_capped ${PROGSIM_TEST_PROGRAM_DIR}/allreduces_then_sleep 20)
# The deadlock's explanation shows source lines: the source is found in the
# working directory, as for a user running compare beside their program.
set(html_directory_deadlock ${PROJECT_SOURCE_DIR}/examples/bsend_shared_flag)
foreach(case deadlock overlap16 scale64 capped)
  add_test(NAME html.report.${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/html/check_html.py
            ${PROGSIM_CLI} ${CMAKE_CURRENT_BINARY_DIR}/html-report-${case} ${case} ${html_program_${case}})
  set_tests_properties(html.report.${case} PROPERTIES LABELS program TIMEOUT 900)
  if(html_directory_${case})
    set_tests_properties(html.report.${case} PROPERTIES WORKING_DIRECTORY ${html_directory_${case}})
  endif()
endforeach()
foreach(case deadlock overlap16 scale64 zoom64)
  add_test(NAME html.chromium.${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/html/chromium_acceptance.py
            ${PROGSIM_CLI} ${CMAKE_CURRENT_BINARY_DIR}/html-chromium-${case} ${case} ${html_program_${case}})
  set_tests_properties(html.chromium.${case} PROPERTIES LABELS program SKIP_RETURN_CODE 77 TIMEOUT 900)
  if(html_directory_${case})
    set_tests_properties(html.chromium.${case} PROPERTIES WORKING_DIRECTORY ${html_directory_${case}})
  endif()
endforeach()
