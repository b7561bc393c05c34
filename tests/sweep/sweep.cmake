# progsim sweep (issue 22): spec validation, the acceptance table (2 programs
# x 4 policies x 3 eager thresholds), resuming, interruption, and the same
# table from a real single-node Slurm (slurm_sweep.sh starts munged,
# slurmctld and slurmd on localhost; SKIP, exit 77, where it cannot).
foreach(case spec_errors slurm_script table resume interrupt)
  add_test(NAME sweep.${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/sweep/sweep_command.py
            ${PROGSIM_CLI} ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(sweep.${case} PROPERTIES LABELS program TIMEOUT 300)
endforeach()
add_test(NAME sweep.slurm
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/sweep/slurm_sweep.sh ${PROGSIM_CLI} ${PROJECT_SOURCE_DIR})
set_tests_properties(sweep.slurm PROPERTIES LABELS program TIMEOUT 600 SKIP_RETURN_CODE 77)
