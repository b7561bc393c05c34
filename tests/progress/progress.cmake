# Adding a progress policy touches only mpi_model/progress/ (docs/design/
# progress.md): the toy policy's patch applied to a copy of the tree, which is
# built and run. It builds progsim once more: quick with the compiler cache
# of the main build (the copy's build folder has the same layout and the
# cache keys are relative to the source tree, CMakeLists.txt), long without
# one, hence alone (RUN_SERIAL) and with a long time-out. The copy chooses
# its own ccache launcher as this tree did; a launcher the user chose
# (-DCMAKE_CXX_COMPILER_LAUNCHER, a cache entry) is passed on.
add_test(NAME progress.toy_policy
  COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/progress/toy_policy.sh ${CMAKE_SOURCE_DIR}
          ${CMAKE_CURRENT_BINARY_DIR}/toy-policy "$CACHE{CMAKE_CXX_COMPILER_LAUNCHER}")
set_tests_properties(progress.toy_policy PROPERTIES LABELS "progress;slow" TIMEOUT 1800 RUN_SERIAL TRUE
                     SKIP_RETURN_CODE 77)

# A rank waiting on requests is not woken for a collective's internal
# completions, unexpected arrivals or its NIC's matches under offload; the
# look it would take is applied to its state (RankProgress::wake_unless_selective). The same stdout,
# stderr and report as when every completion wakes its rank
# (progress/wake_every_completion.sh, PROGSIM_WAKE_EVERY_COMPLETION=1), with
# at least one look applied (--looks), for collectives blocking and
# nonblocking, ranks sharing hosts, mismatched collectives, probes,
# rendezvous, RMA and a run ended by its time limit; under the other
# policies (and offload with nic-step-latency=0), which apply none, the
# outputs are compared all the same.
function(wake_every_completion_test name)
  add_test(NAME progress.wake_every_completion.${name}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/progress/wake_every_completion.sh ${PROGSIM_CLI}
            ${CMAKE_BINARY_DIR}/tests/progress/wake/${name} ${ARGN})
  set_tests_properties(progress.wake_every_completion.${name} PROPERTIES LABELS "progress;program")
endfunction()
foreach(policy offload ideal)
  if(policy STREQUAL offload)
    set(looks --looks)
  else()
    set(looks)
  endif()
  wake_every_completion_test(allreduce_64.${policy} ${looks} -- -n 64 --progress ${policy}
                             ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)
  wake_every_completion_test(coll_all.${policy} ${looks} -- -n 5 --progress ${policy}
                             ${PROGSIM_TEST_PROGRAM_DIR}/coll_all)
  # Ranks sharing a host share its CPU: their deferred costs compete there.
  wake_every_completion_test(allreduce_shared_hosts.${policy} ${looks} -- -n 16 --ranks-per-node 4
                             --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)
endforeach()
foreach(policy weak offload ideal)
  # Under offload these apply looks (the NIC's matches), and must: the
  # comparison is not vacuous. `looks` is set here, not left over from the
  # loop above (whose last policy, ideal, requires none).
  if(policy STREQUAL offload)
    set(looks --looks)
  else()
    set(looks)
  endif()
  wake_every_completion_test(coll_order.${policy} ${looks} -- -n 4 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/coll_order)
  wake_every_completion_test(coll_mismatch.${policy} ${looks} -- -n 4 --progress ${policy}
                             ${PROGSIM_TEST_PROGRAM_DIR}/coll_mismatch)
  wake_every_completion_test(coll_mismatch_nonblocking.${policy} ${looks} -- -n 4 --progress ${policy}
                             ${PROGSIM_TEST_PROGRAM_DIR}/coll_mismatch_nonblocking)
  wake_every_completion_test(p2p_semantics.${policy} ${looks} -- -n 3 --progress ${policy}
                             ${PROGSIM_TEST_PROGRAM_DIR}/p2p_semantics)
  # The NIC matches a program's receives while its rank waits for another
  # request, or for the very receive it matches (the look, then the
  # completion's wake-up at the same instant, which takes the look back).
  wake_every_completion_test(wait_while_matched.${policy} ${looks} -- -n 4 --progress ${policy}
                             ${PROGSIM_TEST_PROGRAM_DIR}/wait_while_matched)
  wake_every_completion_test(rndv.${policy} -- -n 2 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/rndv_compute)
  wake_every_completion_test(rma.${policy} ${looks} -- -n 4 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/trace_rma)
  wake_every_completion_test(time_limit.${policy} ${looks} -- -n 64 --progress ${policy} --time-limit 0.0001
                             ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 100000)
endforeach()
wake_every_completion_test(allreduce_64.thread -- -n 64 --progress thread ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)
wake_every_completion_test(allreduce_64.offload_step0 -- -n 64 --progress offload --cfg nic-step-latency=0
                           ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)

# A rank's debt is executed as one SimGrid execution set up and started in
# one simcall (sim/HostExecution), not SimGrid's this_actor::execute (five):
# the same stdout, stderr and report as with PROGSIM_EXECUTE_STEPWISE=1, with
# at least one execution made, for programs of every kind, ranks sharing
# hosts (their executions share the CPU) and a run ended by its time limit,
# under weak, offload and ideal. Under thread none is made (--none): its
# progress threads run beside the ranks and saw the start in another order
# (progress_thread_cpu moved by one poll, trace_rma at 8 ranks 4 per host,
# which is tested here).
function(execute_stepwise_test name)
  add_test(NAME progress.execute_stepwise.${name}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/progress/execute_stepwise.sh ${PROGSIM_CLI}
            ${CMAKE_BINARY_DIR}/tests/progress/stepwise/${name} ${ARGN})
  set_tests_properties(progress.execute_stepwise.${name} PROPERTIES LABELS "progress;program")
endfunction()
foreach(policy weak thread offload ideal)
  if(policy STREQUAL thread)
    set(none --none)
  else()
    set(none)
  endif()
  execute_stepwise_test(allreduce_64.${policy} ${none} -- -n 64 --progress ${policy}
                        ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)
  execute_stepwise_test(allreduce_shared_hosts.${policy} ${none} -- -n 16 --ranks-per-node 4 --progress ${policy}
                        ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)
  execute_stepwise_test(coll_all.${policy} ${none} -- -n 5 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/coll_all)
  execute_stepwise_test(p2p_semantics.${policy} ${none} -- -n 3 --progress ${policy}
                        ${PROGSIM_TEST_PROGRAM_DIR}/p2p_semantics)
  execute_stepwise_test(wait_while_matched.${policy} ${none} -- -n 4 --progress ${policy}
                        ${PROGSIM_TEST_PROGRAM_DIR}/wait_while_matched)
  execute_stepwise_test(test_loop.${policy} ${none} -- -n 2 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/test_loop)
  execute_stepwise_test(rma_semantics.${policy} ${none} -- -n 4 --ranks-per-node 4 --progress ${policy}
                        ${PROGSIM_TEST_PROGRAM_DIR}/rma_semantics)
  execute_stepwise_test(memory_poll.${policy} ${none} -- -n 2 --privatize=off --progress ${policy}
                        ${PROGSIM_TEST_PROGRAM_DIR}/memory_poll write)
  execute_stepwise_test(bsend_sleep.${policy} ${none} -- -n 2 --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/bsend_sleep)
  # 4-core hosts: 4 ranks (and their progress threads), then 8 ranks, on each.
  execute_stepwise_test(compute_slowdown.${policy} ${none} -- -n 4 --ranks-per-node 4
                        --platform ${CMAKE_BINARY_DIR}/share/progsim/platforms/small-cluster.xml
                        --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/compute_slowdown)
  execute_stepwise_test(allreduce_oversubscribed.${policy} ${none} -- -n 32 --ranks-per-node 8
                        --platform ${CMAKE_BINARY_DIR}/share/progsim/platforms/small-cluster.xml
                        --progress ${policy} ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 20)
  execute_stepwise_test(time_limit.${policy} ${none} -- -n 64 --progress ${policy} --time-limit 0.0001
                        ${PROGSIM_TEST_PROGRAM_DIR}/allreduce_loop 100000)
  execute_stepwise_test(trace_rma_shared_hosts.${policy} ${none} -- -n 8 --ranks-per-node 4 --progress ${policy}
                        ${PROGSIM_TEST_PROGRAM_DIR}/trace_rma)
endforeach()
