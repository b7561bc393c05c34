# Partitioned point-to-point communication (MPI-4.1 chapter 4, issue 15).

# The catalogue's parrived_overlap: rank 1 polls MPI_Parrived (1 ms of work
# between polls) while rank 0 computes 2 s after MPI_Pready of four 1 MiB
# partitions (rendezvous: the data is a decoupled activity of rank 0). Weak:
# the partitions arrive when rank 0 is back in MPI (MPI_Wait at 2 s), after
# about 2000 rounds of 4 false MPI_Parrived; the other policies at once.
progsim_test_program(parrived_overlap ${PROJECT_SOURCE_DIR}/examples/parrived_overlap/parrived_overlap.c)
progsim_program_test(partitioned.parrived.weak PROGRAM parrived_overlap
  EXPECT --expect-outcome completed --twice
         --stdout-regex "rank 1: partition 0 arrived at 2\\.001[0-9]\n"
         --stdout-regex "rank 1: partition 3 arrived at 2\\.001[0-9]\n"
         --stdout-regex "rank 0: send complete at 2\\.000[0-9]\n"
         --stdout-regex "count 524288, data correct"
         --check "/ranks/1/finish_time~2.0012+-0.001" --check "/ranks/1/false_tests~8000+-40"
  RUN -n 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(partitioned.parrived.${policy} PROGRAM parrived_overlap
    EXPECT --expect-outcome completed --twice
           --stdout-regex "rank 1: partition 0 arrived at 0\\.0010\n"
           --stdout-regex "rank 1: partition 3 arrived at 0\\.0010\n"
           --stdout-regex "after 8 MPI_Parrived calls, count 524288, data correct"
           --check "/ranks/1/finish_time~0.0010+-0.0005" --check /ranks/1/tests=8 --check /ranks/1/false_tests=4
    RUN -n 2 --progress ${policy})
endforeach()
# Aggregation is an implementation freedom: whole-message sends one 4 MiB
# message once every partition is ready (the handshake is message 0).
progsim_program_test(partitioned.parrived.whole_message.weak PROGRAM parrived_overlap
  EXPECT --expect-outcome completed --stdout-regex "partition 3 arrived at 2\\.001[0-9]\n"
         --check /messages/records/1/bytes=4194304 --check /messages/count=2
  RUN -n 2 --progress weak --cfg part-aggregation=whole-message)
progsim_program_test(partitioned.parrived.per_partition.weak PROGRAM parrived_overlap
  EXPECT --expect-outcome completed --check /messages/records/1/bytes=1048576 --check /messages/count=5
  RUN -n 2 --progress weak)

progsim_test_program(partitioned partitioned.c)
foreach(policy weak thread offload ideal)
  # Restart: three epochs of MPI_Startall/MPI_Waitall in both directions,
  # 8 send partitions readied in reverse order into 4 receive partitions.
  progsim_program_test(partitioned.restart.${policy} PROGRAM partitioned PROGRAM_ARGS restart
    EXPECT --expect-outcome completed --twice
           --stdout-regex "rank 1: epoch 0 source 0 tag 3 count 4096 wrong 0\n"
           --stdout-regex "rank 1: epoch 2 source 0 tag 3 count 4096 wrong 0\n"
           --stdout-regex "rank 0: epoch 2 source 1 tag 3 count 4096 wrong 0\n"
    RUN -n 2 --progress ${policy})
  foreach(kind range list)
    progsim_program_test(partitioned.pready_${kind}.${policy} PROGRAM partitioned PROGRAM_ARGS ${kind}
      EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: ${kind}: all 8 partitions arrived, wrong 0\n"
      RUN -n 2 --progress ${policy} --cfg part-aggregation=whole-message)
  endforeach()
endforeach()
progsim_program_test(partitioned.proc_null PROGRAM partitioned PROGRAM_ARGS proc_null
  EXPECT --expect-outcome completed --stdout-regex "proc_null: parrived 1 source 1\n"
  RUN -n 1)
progsim_program_test(partitioned.free_inactive PROGRAM partitioned PROGRAM_ARGS free_inactive
  EXPECT --expect-outcome completed --stdout-regex "rank 1: freed\n"
  RUN -n 2 --progress weak)

# Erroneous calls (MPI-4.1 §4.2.2) are fatal MPI errors naming the call.
progsim_program_test(partitioned.error.bad_partition PROGRAM partitioned PROGRAM_ARGS bad_partition
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stderr-regex "rank 0: MPI_Pready: MPI_ERR_ARG \\(invalid argument of some other kind\\): partition 4 is out of range: the request of MPI_Psend_init has 4 partition\\(s\\), numbered 0 to 3 at t="
  RUN -n 2)
progsim_program_test(partitioned.error.pready_twice PROGRAM partitioned PROGRAM_ARGS pready_twice
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "rank 0: MPI_Pready: MPI_ERR_ARG .*partition 1 is already ready in this epoch"
  RUN -n 2)
progsim_program_test(partitioned.error.pready_inactive PROGRAM partitioned PROGRAM_ARGS pready_inactive
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "rank 0: MPI_Pready: MPI_ERR_REQUEST .*is inactive: MPI_Pready needs an epoch started by MPI_Start"
  RUN -n 2)
# Freeing or cancelling an active, incomplete partitioned request is
# erroneous (MPI-4.1 §4.2.1): an error naming the request, on either side.
foreach(what cancel free)
  progsim_program_test(partitioned.error.${what}_active PROGRAM partitioned PROGRAM_ARGS ${what}
    EXPECT --expect-outcome aborted --expect-exit 1 --twice
           --stderr-regex "rank 0: MPI_(Cancel|Request_free): MPI_ERR_REQUEST \\(invalid request\\): the request of MPI_Psend_init is active and not complete: (cancelling|freeing) an active partitioned request is erroneous \\(MPI-4.1 §4.2.1\\)"
    RUN -n 2)
endforeach()
# A partition never readied: a deadlock, explained.
progsim_program_test(partitioned.missing_pready PROGRAM partitioned PROGRAM_ARGS missing_pready
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Psend_init\\(dest=1, tag=0, comm=MPI_COMM_WORLD, 4 partitions of 64 bytes\\), 3 of 4 partitions ready"
         --stderr-regex "waits for its own MPI_Pready of partition\\(s\\) 3"
         --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Precv_init\\(source=0, tag=0, comm=MPI_COMM_WORLD, 4 partitions of 64 bytes\\), 3 of 4 partitions arrived"
         --stderr-regex "class: incorrect under every MPI"
  RUN -n 2 --progress weak)
