# The fabric's transfers skip SimGrid 3.32's maestro list (docs/design/
# protocols.md): the same stdout, stderr and report as with SimGrid's own
# detach (transport/listed_transfers.sh), under every policy, for collectives
# with many transfers in flight at once, rendezvous and RMA, and a run that
# ends (time limit) with transfers still on the network.
function(listed_transfers_test name)
  add_test(NAME transport.listed_transfers.${name}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/transport/listed_transfers.sh ${PROGSIM_CLI}
            ${CMAKE_BINARY_DIR}/tests/transport/${name} -- ${ARGN})
  set_tests_properties(transport.listed_transfers.${name} PROPERTIES LABELS program)
endfunction()
foreach(policy weak thread offload ideal)
  listed_transfers_test(allreduce_64.${policy} -n 64 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)
  listed_transfers_test(coll_all.${policy} -n 5 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/coll_all)
  listed_transfers_test(rndv.${policy} -n 2 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/rndv_compute)
  listed_transfers_test(rma.${policy} -n 4 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/trace_rma)
  listed_transfers_test(time_limit.${policy} -n 64 --progress ${policy} --time-limit 0.0001
                        ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 100000)
endforeach()
