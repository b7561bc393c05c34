# Deadlock explanations and policy comparisons (issue 7).

# MPI-4.1 Example 12.x: Bsend, then a busy-wait on a flag set by the receiver.
progsim_test_program(bsend_shared_flag ${PROJECT_SOURCE_DIR}/examples/bsend_shared_flag/bsend_shared_flag.c)
progsim_program_test(explain.bsend_shared_flag.weak PROGRAM bsend_shared_flag
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: polling watched memory 'window 1 \\(rank 0's part\\)' at offset 0 since t=10\\.0000[0-9]+ s at main \\(bsend_shared_flag\\.c:38\\)"
         --stderr-regex "rank 1: blocked since t=0\\.0000[0-9]+ s in MPI_Recv\\(source=0, tag=0, comm=comm_sm, 8388608 bytes\\) at main \\(bsend_shared_flag\\.c:46\\)"
         --stderr-regex "waits for the data of rank 0's matched rendezvous send: a decoupled activity \\(progress chunk rndv\\.on_cts_origin"
         --stderr-regex "class: needs strong progress - rank 1 waits for a decoupled MPI activity"
         --stderr-regex "out of MPI since its last MPI call \\(MPI_Bsend\\) returned at t=0\\.0000"
         --stderr-regex "MPI-4\\.1 §2\\.9"
         --check "/deadlock/class=needs strong progress" --check /deadlock/strong_progress/waiting_rank=1
         --check /deadlock/strong_progress/chunk_owner=0
         --check "/deadlock/strong_progress/owner_polling_since~10.0+-0.001"
         --check "/deadlock/ranks/1/source=main (bsend_shared_flag.c:46)"
         --check "/deadlock/ranks/0/watch=window 1 (rank 0's part)"
         --check "/deadlock/ranks/1/waits_for/0/kind=progress chunk"
         --check "/ranks/1/blocked_time~10.0+-0.001"
  RUN -n 2 --ranks-per-node 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(explain.bsend_shared_flag.${policy} PROGRAM bsend_shared_flag
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: received at 0\\.00[0-9]+\n"
           --stdout-regex "rank 0: acknowledged at 10\\.00"
    RUN -n 2 --ranks-per-node 2 --progress ${policy})
endforeach()
# compare exits with the status of the first policy's run that did not
# complete (weak's deadlock: 3), so that it can gate CI.
progsim_program_test(compare.bsend_shared_flag_json PROGRAM bsend_shared_flag
  EXPECT --command compare --expect-exit 3 --twice
         --stdout-regex "\"policy\": \"weak\",\n +\"outcome\": \"deadlock\""
         --stdout-regex "\"deadlock_class\": \"needs strong progress\""
         --stdout-regex "\"policy\": \"thread\",\n +\"outcome\": \"completed\""
         --stdout-regex "\"policy\": \"ideal\",\n +\"outcome\": \"completed\""
  RUN --json -n 2 --ranks-per-node 2)

# The head-to-head unsafe sends: the source line of each blocked MPI_Send and
# the eager threshold that avoids the deadlock.
progsim_program_test(explain.head_to_head_source PROGRAM head_to_head
  EXPECT --expect-outcome deadlock --expect-exit 3
         --stderr-regex "in MPI_Send\\(dest=1, tag=0, comm=MPI_COMM_WORLD, 4194304 bytes\\) at main \\(unsafe_send_order\\.c:17\\)"
         --stderr-regex "completes with an eager threshold >= 4194304 bytes"
         --check "/deadlock/class=needs buffering" --check /deadlock/eager_threshold_that_completes=4194304
         --check "/deadlock/ranks/0/source=main (unsafe_send_order.c:17)"
  RUN -n 2)
# The threshold the explanation names does complete the program, one byte less does not.
progsim_program_test(explain.head_to_head_threshold PROGRAM head_to_head
  EXPECT --expect-outcome completed RUN -n 2 --cfg eager-threshold=4194304)
progsim_program_test(explain.head_to_head_threshold_minus_one PROGRAM head_to_head
  EXPECT --expect-outcome deadlock RUN -n 2 --cfg eager-threshold=4194303)

# overlap is '-': the program has no nonblocking operation (MPI_Bsend and
# MPI_Recv are blocking), so there is nothing to hide.
progsim_program_test(compare.csv PROGRAM bsend_sleep
  EXPECT --command compare --expect-exit 0
         --stdout-regex "^policy,outcome,simulated_time,blocked_in_mpi,tests,false_tests,memory_polls,progress_thread_cpu,messages,latency_median,latency_p99,overlap,deadlock_class"
         --stdout-regex "weak,completed,10\\.00067[0-9]*,10\\.0013[0-9]*,0,0,0,0,1,10\\.00067[0-9]*,10\\.00067[0-9]*,-,"
  RUN --csv -n 2)

# A late completion is explained too: under weak progress rank 0's chunk waits
# 10 s for rank 0 to call MPI again (needs strong progress); not under thread.
progsim_program_test(explain.bsend_sleep_delay.weak PROGRAM bsend_sleep
  EXPECT --expect-outcome completed --twice
         --check /progress_delays/0/owner=0 --check "/progress_delays/0/delay~10.0+-0.001"
         --check "/progress_delays/0/class=needs strong progress" --check /progress_delays/0/executor=rank
  RUN -n 2 --progress weak)
progsim_program_test(explain.bsend_sleep_delay.thread PROGRAM bsend_sleep
  EXPECT --expect-outcome completed --check "/progress_delays=[]"
  RUN -n 2 --progress thread)
progsim_program_test(compare.bsend_sleep_delay PROGRAM bsend_sleep
  EXPECT --command compare --expect-exit 0 --twice
         --stdout-regex "weak: a progress chunk of rank 0 waited 9\\.99999[0-9] s for its executor \\(rank\\): rndv\\.on_cts_origin"
         --stdout-regex "avoiding this wait needs strong progress"
  RUN -n 2)

# --cfg call-sites=off: no unwinding, so no source line (and nothing else changes).
progsim_program_test(explain.head_to_head_no_call_sites PROGRAM head_to_head
  EXPECT --expect-outcome deadlock --expect-exit 3 --check "/deadlock/ranks/0/source="
         --check "/deadlock/class=needs buffering"
         --stderr-regex "4194304 bytes\\) \\(a blocked non-local call\\)"
  RUN -n 2 --cfg call-sites=off)

# Livelock: a rank that only calls test procedures that can never succeed,
# while nothing is in flight and every other rank has finished, is blocked or
# loops the same way, is part of the deadlock (exit status 3); the
# explanation names the polling rank, its call, source line and since when.
# A loop that reads a clock to time out is not a livelock: it ends at 1 s.
# (--time-limit: without the detection these runs would never end.)
progsim_test_program(test_livelock test_livelock.c)
set(livelock_iprobe "rank 1: polls MPI_Iprobe\\(source=0, tag=5, comm=MPI_COMM_WORLD\\) at main \\(test_livelock\\.c:43\\) since t=0\\.0000[0-9]+ s \\([0-9]+ test calls in a row found nothing and nothing can arrive: a livelock\\)\n      waits for a matching send from rank 0 \\(tag 5\\)")
foreach(policy weak thread offload ideal)
  progsim_program_test(livelock.iprobe.${policy} PROGRAM test_livelock
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "rank 0: finished at" --stderr-regex "${livelock_iprobe}"
           --stderr-regex "class: incorrect under every MPI - a blocked call waits for rank 0, which has finished.* Rank 1 loops on test procedures that find nothing while nothing can arrive: a livelock"
           --check "/deadlock/class=incorrect under every MPI" --check "/deadlock/livelocked_ranks=[1]"
           --check /deadlock/ranks/1/state=polling
           --check "/deadlock/ranks/1/call=MPI_Iprobe(source=0, tag=5, comm=MPI_COMM_WORLD)"
           --check "/deadlock/ranks/1/source=main (test_livelock.c:43)" --check /deadlock/ranks/1/tests_in_a_row=100000
    RUN -n 2 --progress ${policy} --time-limit 0.5 PROGRAM_ARGS iprobe)
  progsim_program_test(livelock.test.${policy} PROGRAM test_livelock
    EXPECT --expect-outcome deadlock --expect-exit 3
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Recv\\(source=1, tag=0, comm=MPI_COMM_WORLD, 4 bytes\\) at main \\(test_livelock\\.c:25\\)"
           --stderr-regex "rank 1: polls MPI_Test on 1 request\\(s\\): MPI_Irecv\\(source=0, tag=7, comm=MPI_COMM_WORLD, 4 bytes\\) \\[posted\\]. at main \\(test_livelock\\.c:30\\) since t="
           --stderr-regex "cycle: rank 0 -> rank 1 -> rank 0"
           --check "/deadlock/class=incorrect under every MPI" --check "/deadlock/livelocked_ranks=[1]"
           --check "/deadlock/cycle=[0,1]"
    RUN -n 2 --progress ${policy} --time-limit 0.5 PROGRAM_ARGS test)
  progsim_program_test(livelock.both.${policy} PROGRAM test_livelock
    EXPECT --expect-outcome deadlock --expect-exit 3
           --stderr-regex "rank 0: polls MPI_Iprobe\\(source=1, tag=5, comm=MPI_COMM_WORLD\\) at main \\(test_livelock\\.c:34\\)"
           --stderr-regex "rank 1: polls MPI_Iprobe\\(source=0, tag=5, comm=MPI_COMM_WORLD\\) at main \\(test_livelock\\.c:34\\)"
           --stderr-regex "Ranks 0, 1 loop on test procedures"
           --check "/deadlock/class=incorrect under every MPI" --check "/deadlock/livelocked_ranks=[0,1]"
    RUN -n 2 --progress ${policy} --time-limit 0.5 PROGRAM_ARGS both)
  progsim_program_test(livelock.timeout.${policy} PROGRAM test_livelock
    EXPECT --expect-outcome completed --expect-exit 0 --stdout-regex "rank 1: gave up at 0\\.0100[0-9]+, flag 0\n"
           --check "/simulated_time~0.01+-0.00001"
    RUN -n 2 --progress ${policy} --time-limit 5 PROGRAM_ARGS timeout)
endforeach()
# Sleeping between probes makes time pass, but nothing can arrive either
# (1,000 probes of 100 us: the default 100,000 would take 10 s).
progsim_program_test(livelock.sleep.weak PROGRAM test_livelock
  EXPECT --expect-outcome deadlock --expect-exit 3 --stderr-regex "${livelock_iprobe}"
         --check "/deadlock/livelocked_ranks=[1]"
  RUN -n 2 --progress weak --time-limit 5 --cfg livelock-tests=1000 PROGRAM_ARGS sleep)
# livelock-tests=0 turns the detection off: the same run reaches the time limit.
progsim_program_test(livelock.detection_off PROGRAM test_livelock
  EXPECT --expect-outcome stuck --expect-exit 4
  RUN -n 2 --progress weak --time-limit 0.01 --cfg livelock-tests=0 PROGRAM_ARGS iprobe)
