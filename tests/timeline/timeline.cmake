# Timelines (--timeline) and the HTML comparison (compare --html) of the
# Bsend-then-sleep example: data asserted in the files, and a headless
# Chromium screenshot of the page (skipped when chromium is not installed).
find_package(Python3 COMPONENTS Interpreter REQUIRED)
foreach(mode chrome paje html screenshot)
  add_test(NAME timeline.bsend_sleep.${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/timeline/check_timeline.py
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/bsend_sleep ${CMAKE_CURRENT_BINARY_DIR}/timeline-${mode} ${mode})
  set_tests_properties(timeline.bsend_sleep.${mode} PROPERTIES LABELS program SKIP_RETURN_CODE 77)
endforeach()
set_tests_properties(timeline.bsend_sleep.screenshot PROPERTIES TIMEOUT 300)

# Timelines at scale (issue 18): --timeline-ranks, --timeline-window and the
# event cap restrict what is recorded, deterministically.
foreach(mode ranks window cap errors)
  add_test(NAME timeline.selection.${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/timeline/check_selection.py
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/coll_all ${CMAKE_CURRENT_BINARY_DIR}/timeline-selection-${mode} ${mode})
  set_tests_properties(timeline.selection.${mode} PROPERTIES LABELS program)
endforeach()

# A sign of life for long runs (issue 18): the progress line on a terminal,
# erased before the program's output, never in pipes or files.
progsim_test_program(allreduce_loop allreduce_loop.c)
add_test(NAME timeline.progress_line
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/timeline/progress_line.sh ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop)
set_tests_properties(timeline.progress_line PROPERTIES LABELS program SKIP_RETURN_CODE 77 ENVIRONMENT "PROGSIM_PROGRESS_LINE=unset:")

# A large timeline (64 ranks) read by a reader of each format: a trace-event
# validator (no package provides Perfetto's trace processor) and pajeng's
# pj_dump (skipped when pajeng is not installed).
progsim_test_program(allreduces_then_sleep allreduces_then_sleep.c)
foreach(mode chrome paje)
  add_test(NAME timeline.large.${mode}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/timeline/check_large_timeline.py
            ${PROGSIM_CLI} ${CMAKE_CURRENT_BINARY_DIR}/timeline-large-${mode} ${mode}
            ${PROGSIM_TEST_PROGRAM_DIR}/allreduces_then_sleep 200)
  set_tests_properties(timeline.large.${mode} PROPERTIES LABELS program SKIP_RETURN_CODE 77 TIMEOUT 900)
endforeach()

# A run stopped by its time limit reports only what happened before the stop:
# the engine still runs pending NIC steps and packet arrivals while the
# killed ranks unwind, and these must take no effect (they wrote into the
# ranks' freed stacks, and the report counted them: more chunks and timeline
# events than the timeline holds). 64 ranks of MPI_IN_PLACE allreduces on a
# stack variable, stopped with collectives in flight.
foreach(policy weak thread offload ideal)
  add_test(NAME timeline.stopped_run.${policy}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/timeline/check_stopped_run.py
            ${PROGSIM_CLI} ${CMAKE_CURRENT_BINARY_DIR}/timeline-stopped-${policy} stuck
            -- -n 64 --progress ${policy} --time-limit 0.0001 ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 100000)
  set_tests_properties(timeline.stopped_run.${policy} PROPERTIES LABELS program)
endforeach()
