# Causality (issue 14): nothing another rank or the network observes happens
# before the issuing rank's clock, and the time quantum, which batches small
# CPU costs, batches only those nobody can observe.

# Rank 0 spends 1,000 cheap calls, then sends: the receive cannot complete
# before the send was issued (it did, by 49 us, with deferred costs).
progsim_test_program(causality causality.c)
foreach(policy weak thread offload ideal)
  foreach(kind wtime iprobe comm_rank)
    progsim_program_test(causality.${kind}.${policy} PROGRAM causality PROGRAM_ARGS ${kind}
      EXPECT --expect-outcome completed --expect-exit 0 --twice
             --stdout-regex "before send t=0\\.000[01][0-9]+\n"
             --stdout-regex "recv done t=[0-9.]+ after the send\n"
      RUN -n 2 --progress ${policy})
  endforeach()
endforeach()

# A local query that writes watched memory (its output argument) wakes the
# poller at the writer's clock, not at the simulator's behind it.
foreach(policy weak thread offload ideal)
  progsim_program_test(causality.watched_write.${policy} PROGRAM causality PROGRAM_ARGS watched_write
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "before write t=0\\.000[01][0-9]+\n"
           --stdout-regex "woke t=[0-9.]+ after the write\n"
    RUN -n 2 --privatize=off --progress ${policy})
endforeach()

# The deferral of CPU costs and the stamping of what ranks do with their own
# clocks keep results: with observation-lag=0 (a rank looks at arrivals only
# at its own clock), the same outcome, errors and each rank's output
# (--tag-output: ranks printing at the same instant may come out in either
# order), times within 2%, as with no deferral at all (time-quantum=0: every
# cost executed at once), for programs of every kind (clock polling, test
# loops, protocols, collectives, RMA, memory polling, sleeps), under every
# policy. Not to the bit: sums of costs in another order differ in their
# last bits, which can reorder events of one instant. (Not sleep_wtime:
# without a quantum its 0.5 s MPI_Wtime loop is 10 million SimGrid
# executions, 6 minutes.)
#
# The default observation lag (1 us: sends, receives, waits and collectives
# may look at arrivals up to that much before their rank's clock) changes
# the same programs' times by less than 5%, outcomes and outputs otherwise
# equal (docs/design/time.md).
function(progsim_quantum_test name program)
  cmake_parse_arguments(Q "" "" "RUN;PROGRAM_ARGS" ${ARGN})
  foreach(policy weak thread offload ideal)
    progsim_program_test(causality.quantum.${name}.${policy} PROGRAM ${program} PROGRAM_ARGS ${Q_PROGRAM_ARGS}
      EXPECT --same-with --cfg --same-with time-quantum=0 --same-within-relative 0.02
             --same-report-paths /outcome,/simulated_time,/errors
      RUN ${Q_RUN} --progress ${policy} --tag-output --cfg observation-lag=0)
    progsim_program_test(causality.lag.${name}.${policy} PROGRAM ${program} PROGRAM_ARGS ${Q_PROGRAM_ARGS}
      EXPECT --same-with --cfg --same-with observation-lag=0 --same-within-relative 0.05
             --same-report-paths /outcome,/simulated_time,/errors
      RUN ${Q_RUN} --progress ${policy} --tag-output)
  endforeach()
endfunction()
progsim_quantum_test(hello hello RUN -n 4)
progsim_quantum_test(wtime_then_send causality RUN -n 2 PROGRAM_ARGS wtime)
progsim_quantum_test(iprobe_then_send causality RUN -n 2 PROGRAM_ARGS iprobe)
progsim_quantum_test(test_loop test_loop RUN -n 2)
progsim_quantum_test(p2p_semantics p2p_semantics RUN -n 3)
progsim_quantum_test(rndv_compute rndv_compute RUN -n 2 PROGRAM_ARGS sender-computes)
progsim_quantum_test(coll_all coll_all RUN -n 5)
progsim_quantum_test(rma_semantics rma_semantics RUN -n 4 --ranks-per-node 4)
progsim_quantum_test(win_test_loop rma_problem2 RUN -n 2)
progsim_quantum_test(memory_poll memory_poll RUN -n 2 --privatize=off PROGRAM_ARGS write)
progsim_quantum_test(bsend_sleep bsend_sleep RUN -n 2)
