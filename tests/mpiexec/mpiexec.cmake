# The mpiexec drop-in (issue 21): progsim-mpiexec, mpiexec.progsim and
# `progsim -n N`, with the launcher habits of mpirun, Hydra and smpirun. One
# test per option (or group of spellings of one option); each is a function
# of options.sh, run as: bash options.sh BUILD_DIR SCRATCH_DIR CASE.
set(PROGSIM_MPIEXEC_CASES n_forms launcher_names x genv host hostfile npernode map_by oversubscribe bind_to
    platform display_map environment_defaults mpiexec_timeout refused help)
foreach(case ${PROGSIM_MPIEXEC_CASES})
  add_test(NAME mpiexec.${case}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/options.sh ${CMAKE_BINARY_DIR}
            ${CMAKE_CURRENT_BINARY_DIR}/mpiexec/${case} ${case})
  set_tests_properties(mpiexec.${case} PROPERTIES LABELS mpiexec TIMEOUT 120)
endforeach()
