# One-sided communication (issue 4): semantics under every policy and the
# progress examples of the MPI texts (../shared/mpi-progress files 000, 002,
# 004) with their expected outcome per policy.

# Rank 0 checks that a put outside any epoch fails with MPI_ERR_RMA_SYNC:
# an erroneous call on purpose (MPI-4.1 §12.5), so the run is `erroneous`,
# with that one error (tests/programs/check_lifecycle.cmake checks the rule).
progsim_test_program(rma_semantics rma_semantics.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(rma.semantics.${policy} PROGRAM rma_semantics
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stdout-regex "rank 0: rma_semantics ok \\(27 checks\\)" --stdout-regex "rank 3: rma_semantics ok \\(23 checks\\)"
           --check "/errors/0/rule=RMA synchronization error" --check "/errors/0/ranks=[0]"
           --check "/errors/0/sites/0/source=errors_and_names (rma_semantics.c:192)"
           --stderr-regex "the program broke 1 rule\\(s\\)"
    RUN -n 4 --ranks-per-node 4 --progress ${policy})
endforeach()
# The implementation freedoms the other way round: same results.
progsim_program_test(rma.semantics.freedoms PROGRAM rma_semantics
  EXPECT --expect-outcome erroneous --stdout-regex "rank 2: rma_semantics ok \\(23 checks\\)"
         --stderr-regex "the program broke 1 rule\\(s\\)"
  RUN -n 3 --ranks-per-node 3 --cfg rma-issue=sync --cfg win-start-blocks=yes --cfg win-complete-remote=yes)

# Accesses across adjacent attached regions of a dynamic window, in every
# form (issue 19, branch issue19-rmart): completed, with the data where the
# program put it, under every policy; round-tripped by
# traces.roundtrip.program.rma_dynamic_span (tests/traces/roundtrip_programs.cmake).
progsim_test_program(rma_dynamic_span rma_dynamic_span.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(rma.dynamic_span.${policy} PROGRAM rma_dynamic_span
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: rma_dynamic_span ok \\(34 checks\\)"
           --stdout-regex "rank 2: rma_dynamic_span ok \\(34 checks\\)"
    RUN -n 3 --progress ${policy})
endforeach()

# Conflicting puts to memory of a dynamic window between which the target
# attaches a region next to it (branch attachwatch): the run finds them in
# fence, shared-lock and PSCW epochs (MPI-4.1 §12.7), not when the puts are
# apart; traces.roundtrip.program.rma_attach_moves requires its replay, in
# which the attach moves the memory (traces/replay/AttachedLayout), to find
# the same, at the same times.
progsim_test_program(rma_attach_moves rma_attach_moves.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(rma.attach_moves.${policy} PROGRAM rma_attach_moves
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: rma_attach_moves ok \\(7 checks\\)"
           --check "/undefined/0/rule=conflicting RMA accesses" --check "/undefined/2/rule=conflicting RMA accesses"
           --stderr-regex "3 undefined outcome\\(s\\)"
    RUN -n 3 --progress ${policy})
endforeach()

# File 002, Figure 32: post, start, put, complete, wait on both ranks.
progsim_test_program(rma_pscw_figures rma_pscw_figures.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(rma.figure32.${policy} PROGRAM rma_pscw_figures PROGRAM_ARGS fig32
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: fig32: 0 of 4 values wrong"
           --stdout-regex "rank 1: fig32: 0 of 4 values wrong"
    RUN -n 2 --progress ${policy})
  # Figure 33: deadlock under every MPI (a cycle of non-local calls).
  progsim_program_test(rma.figure33.${policy} PROGRAM rma_pscw_figures PROGRAM_ARGS fig33
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Recv\\(source=1, tag=0, comm=MPI_COMM_WORLD, 4 bytes\\) at main \\(rma_pscw_figures\\.c:52\\)"
           --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Win_wait\\(window 1\\), waiting for MPI_Win_complete of rank\\(s\\) 0"
           --stderr-regex "waits for a matching MPI_Win_complete on rank 0 \\(window 1\\)"
           --stderr-regex "cycle: rank 0 -> rank 1 -> rank 0"
           --check "/deadlock/class=incorrect under every MPI" --check "/deadlock/cycle=[0,1]"
           --check "/deadlock/ranks/1/waits_for/0/kind=matching call"
    RUN -n 2 --progress ${policy})
  # Figure 34 with a 1 MiB put: rank 1 blocked in MPI_Recv progresses the put.
  progsim_program_test(rma.figure34.${policy} PROGRAM rma_pscw_figures PROGRAM_ARGS fig34
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: fig34: 0 of 262144 values wrong"
    RUN -n 2 --progress ${policy})
endforeach()
# Figure 32 with start before post on both ranks: an implementation freedom.
progsim_program_test(rma.start_first.nonblocking PROGRAM rma_pscw_figures PROGRAM_ARGS start_first
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: start_first: 0 of 4 values wrong"
  RUN -n 2 --cfg win-start-blocks=no)
progsim_program_test(rma.start_first.blocking PROGRAM rma_pscw_figures PROGRAM_ARGS start_first
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Win_start\\(window 1\\), waiting for MPI_Win_post of rank\\(s\\) 1"
         --stderr-regex "class: depends on an implementation freedom - MPI_Win_start may block until the matching MPI_Win_post"
         --check "/deadlock/class=depends on an implementation freedom"
  RUN -n 2 --cfg win-start-blocks=yes)

# File 004, Problem 2: a MPI_Win_test loop progresses a pending MPI_Bsend.
# Under weak progress the loop runs from t=10 s until rank 1 has received
# the 8 MiB and put the acknowledgement (each MPI_Win_test costs 150 ns).
# The program is the catalogue's examples/win_test_loop.
progsim_test_program(rma_problem2 ${PROJECT_SOURCE_DIR}/examples/win_test_loop/win_test_loop.c)
progsim_program_test(rma.problem2.weak PROGRAM rma_problem2
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: 4[0-9][0-9][0-9] MPI_Win_test calls, ack=222 at 10\\.000"
         --check "/ranks/0/win_tests~4500+-500" --check "/ranks/0/false_tests~4500+-500" --check /ranks/1/win_tests=0
  RUN -n 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(rma.problem2.${policy} PROGRAM rma_problem2
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: 1 MPI_Win_test calls, ack=222 at 10\\.0000"
           --check /ranks/0/win_tests=1 --check /ranks/0/false_tests=0
    RUN -n 2 --progress ${policy})
endforeach()

# File 004, Problem 3: busy-wait on a stack variable exposed with
# MPI_Win_create, set by the peer's lock/put/unlock after a MPI_Recv of data
# buffered by the poller's MPI_Bsend.
progsim_test_program(rma_problem3 rma_problem3.c)
progsim_program_test(rma.problem3.weak PROGRAM rma_problem3
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: polling watched memory 'window 1 \\(rank 0's part\\)' at offset 0 since t=10\\.0000[0-9]+ s at main \\(rma_problem3\\.c:30\\)"
         --stderr-regex "rank 1: blocked since t=5\\.0000[0-9]+ s in MPI_Recv"
         --stderr-regex "class: needs strong progress"
         --check "/deadlock/class=needs strong progress" --check /deadlock/strong_progress/chunk_owner=0
  RUN -n 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(rma.problem3.${policy} PROGRAM rma_problem3
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: unlocked at 5\\.000[0-9]+\n"
           --stdout-regex "rank 0: myAck=101 at 10\\.0000"
    RUN -n 2 --progress ${policy})
endforeach()

# Example 12.x (file 000) with a real MPI_Win_allocate_shared window: the
# explanation tests are in explain.cmake (examples/bsend_shared_flag). The
# late receiver: rank 0 polls the shared flag for about 20 s.
progsim_test_program(rma_flag_late rma_flag_late.c)
progsim_program_test(rma.flag_late.weak PROGRAM rma_flag_late
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: polling watched memory 'window 1 \\(rank 0's part\\)' at offset 0 since t=0\\.0000"
         --check "/deadlock/class=needs strong progress"
  RUN -n 2 --ranks-per-node 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(rma.flag_late.${policy} PROGRAM rma_flag_late
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: flag seen at 20\\.0000"
           --check "/simulated_time~20.0+-0.001" --check "/ranks/0/memory_polling_time~20.0+-0.001"
           --check "/ranks/1/memory_polling_time=0"
    RUN -n 2 --ranks-per-node 2 --progress ${policy})
endforeach()

# Polling a heap MPI_Win_create buffer of 1 KiB: watched lazily (armed when
# rank 0 has spun memory-watch-arm of host CPU), then a poll like any other.
progsim_test_program(rma_heap_flag rma_heap_flag.c)
progsim_program_test(rma.heap_flag.weak PROGRAM rma_heap_flag
  EXPECT --expect-outcome deadlock --expect-exit 3
         --stderr-regex "rank 0: polling watched memory 'window 1 \\(rank 0's part\\)' at offset 400 since t=0\\.0000[0-9]+ s at main \\(rma_heap_flag\\.c:[0-9]+\\)"
         --stderr-regex "rank 1: blocked since t=3\\.0000[0-9]+ s in MPI_Win_lock"
  RUN -n 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(rma.heap_flag.${policy} PROGRAM rma_heap_flag
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: flag=101 at 3\\.0000[0-9]+, flags\\[1\\]=1001"
           --check /ranks/0/memory_lazy_arms=1 --check "/ranks/0/memory_polling_time~3+-0.01"
    RUN -n 2 --progress ${policy})
endforeach()
# The same buffer attached to a dynamic window (also watched lazily).
progsim_program_test(rma.heap_flag.dynamic_weak PROGRAM rma_heap_flag PROGRAM_ARGS dynamic
  EXPECT --expect-outcome deadlock --expect-exit 3
         --stderr-regex "rank 0: polling watched memory 'window 1 \\(memory attached by rank 0\\)' at offset 400"
  RUN -n 2 --progress weak)
progsim_program_test(rma.heap_flag.dynamic_offload PROGRAM rma_heap_flag PROGRAM_ARGS dynamic
  EXPECT --expect-outcome completed --stdout-regex "rank 0: flag=101 at 3\\.0000[0-9]+, flags\\[1\\]=1001"
         --check "/ranks/0/memory_polling_time~3+-0.01"
  RUN -n 2 --progress offload)
# Without lazy watching the spin is never seen: the watchdog ends the run.
progsim_program_test(rma.heap_flag.not_armed PROGRAM rma_heap_flag
  EXPECT --expect-outcome stuck --expect-exit 4 --stderr-regex "rank 0 is stuck"
  RUN -n 2 --progress ideal --cfg memory-watch-arm=0 --cfg watchdog=1)

# Issue order at the target: a large accumulate then small ones over it,
# equal accumulates/puts to one location, fetch-and-op increments without
# flushes (MPICH acc_ordering, large_small_acc, overlap_wins_put).
progsim_test_program(rma_ordering rma_ordering.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(rma.ordering.${policy} PROGRAM rma_ordering
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: rma_ordering ok \\(1 checks\\)" --stdout-regex "rank 1: rma_ordering ok \\(4 checks\\)"
    RUN -n 2 --progress ${policy})
endforeach()

# Every one-sided call the trace recorder records (issue 19): the program
# checks its data under each policy; traces.roundtrip.program.trace_rma
# (tests/traces/roundtrip_programs.cmake) records and replays it under all four.
progsim_test_program(trace_rma trace_rma.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(rma.trace_rma.${policy} PROGRAM trace_rma
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: trace_rma ok" --stdout-regex "rank 3: trace_rma ok"
    RUN -n 4 --ranks-per-node 4 --progress ${policy})
endforeach()
