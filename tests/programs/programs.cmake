# Program tests: each MPI program with the outcome it must have.
# Times are simulated seconds; tolerances are stated per check.

progsim_test_program(hello ${PROJECT_SOURCE_DIR}/examples/hello/hello.c)
progsim_test_program(hello_cxx hello_cxx.cpp)
progsim_test_program(sleep_wtime sleep_wtime.c)
progsim_test_program(global_counter global_counter.c)
progsim_test_program(finalize_elsewhere finalize_elsewhere.c)
progsim_test_program(nonzero_return nonzero_return.c)
progsim_test_program(segfault segfault.c)
progsim_test_program(abort abort.c)
progsim_test_program(abort_signal abort_signal.c)
progsim_test_program(no_finalize no_finalize.c)
progsim_test_program(barrier_mismatch barrier_mismatch.c)
progsim_test_program(errhandler errhandler.c)
progsim_test_program(environment environment.c)
progsim_test_program(alloc_mem_and_unimplemented alloc_mem_and_unimplemented.c)
progsim_test_program(grequest grequest.c)
progsim_test_program(null_buffer null_buffer.c)
progsim_test_program(thread_call thread_call.c)

# --- runtime (issue 2) ---
foreach(n 1 4 64)
  progsim_program_test(runtime.hello_n${n} PROGRAM hello
    EXPECT --expect-outcome completed --expect-exit 0 --stdout-lines ${n} --twice
           --stdout-regex "Hello from rank 0 of ${n} on node-0\n"
           --stdout-regex "Hello from rank ${n}-1|Hello from rank [0-9]+ of ${n} on node-"
           --check /nranks=${n}
    RUN -n ${n})
endforeach()
progsim_program_test(runtime.hello_distinct_hosts PROGRAM hello
  EXPECT --stdout-regex "rank 63 of 64 on node-63\n" --check /ranks/63/host=node-63
  RUN -n 64)
progsim_program_test(runtime.hello_ranks_per_node PROGRAM hello
  EXPECT --stdout-regex "rank 3 of 8 on node-1\n" --check /ranks/7/host=node-3
  RUN -n 8 --ranks-per-node 2)
progsim_program_test(runtime.hello_tag_output PROGRAM hello
  EXPECT --stdout-regex "^\\[0\\] Hello from rank 0" --stdout-regex "\n\\[2\\] Hello from rank 2"
  RUN -n 3 --tag-output)
progsim_program_test(runtime.hello_cxx PROGRAM hello_cxx
  EXPECT --expect-outcome completed --stdout-regex "rank 2/4: caught inside rank 2, instances 3\n" --twice
  RUN -n 4)
progsim_program_test(runtime.sleep_and_wtime PROGRAM sleep_wtime
  EXPECT --expect-outcome completed --twice
         --timeline-regex "\"name\":\\s*\"MPI_Wtime\",[^}]*\"calls\":\\s*10000003[^0-9]"
         --stdout-regex "after sleep\\(3\\): 3\\.0000"
         --stdout-regex "after busy loop: 3\\.50"
         --stdout-regex "after usleep\\+nanosleep: 3\\.875"
         --check "/ranks/0/finish_time~3.875+-0.001"
         --check "/simulated_time~3.875+-0.001"
  RUN -n 2)
progsim_program_test(runtime.nonzero_return PROGRAM nonzero_return
  EXPECT --expect-outcome completed --expect-exit 4 --twice
         --stderr-regex "rank 1 returned exit code 260 after MPI_Finalize"
         --check /ranks/1/exit_code=260 --check /ranks/2/exit_code=3
  RUN -n 3)
progsim_program_test(runtime.globals_privatized PROGRAM global_counter
  EXPECT --expect-outcome completed --stdout-regex "rank 3: counter=1 calls=1\n" --twice
  RUN -n 4)
progsim_program_test(runtime.globals_shared_without_privatization PROGRAM global_counter
  EXPECT --expect-outcome completed --stdout-regex "rank 0: counter=4 calls=1\n"
         --stdout-regex "rank 3: counter=4 calls=4\n" --check /privatization=false --twice
  RUN -n 4 --privatize=off)
progsim_program_test(runtime.segfault PROGRAM segfault
  EXPECT --expect-outcome crashed --expect-exit 139 --twice
         --stderr-regex "rank 3 crashed: SIGSEGV \\(segmentation fault\\) at t=[0-9.]+ s in user code after MPI_Barrier, at main \\(segfault\\.c:19\\)"
         --stdout-regex "rank 3 before the crash" --check /ranks/3/state=failed
  RUN -n 4)
# A fault inside the library is located at the program's call, not in progsim or SimGrid.
progsim_program_test(runtime.segfault_in_mpi PROGRAM segfault PROGRAM_ARGS in_mpi
  EXPECT --expect-outcome crashed --expect-exit 139 --twice
         --stderr-regex "rank 3 crashed: SIGSEGV \\(segmentation fault\\) at t=[0-9.]+ s inside MPI_Send, at main \\(segfault\\.c:16\\)"
  RUN -n 4)
progsim_program_test(runtime.abort PROGRAM abort
  EXPECT --expect-outcome aborted --expect-exit 3 --twice
         --stderr-regex "rank 1 called MPI_Abort\\(MPI_COMM_WORLD, 3\\) at t=1\\.0000"
  RUN -n 4)
progsim_program_test(runtime.abort_signal PROGRAM abort_signal
  EXPECT --expect-outcome crashed --expect-exit 134
         --stderr-regex "rank 0 crashed: SIGABRT \\(abort\\) at t=[0-9.]+ s in user code after MPI_Comm_rank, at main \\(abort_signal\\.c:11\\)"
  RUN -n 2)
progsim_program_test(runtime.exit_without_finalize PROGRAM no_finalize
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "rank 2 exited \\(code 0\\) without calling MPI_Finalize at t=[0-9.]+ s. its last MPI call was MPI_Comm_rank"
  RUN -n 4)
progsim_program_test(runtime.barrier_deadlock PROGRAM barrier_mismatch
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Barrier\\(comm=MPI_COMM_WORLD\\), waiting for a message from rank 0"
         --stderr-regex "rank 0: finished at"
         --stderr-regex "class: incorrect under every MPI - a blocked call waits for rank 0, which has finished"
         --check "/deadlock/class=incorrect under every MPI" --check /deadlock/waits_for_finished_rank=0
  RUN -n 3)
progsim_program_test(runtime.alloc_mem_and_unimplemented PROGRAM alloc_mem_and_unimplemented
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stdout-regex "rank 0: block\\[12345\\]=1, free of a stack address -> MPI_ERR_BASE\n"
         --stdout-regex "rank 1: block\\[12345\\]=2, free of a stack address -> MPI_ERR_BASE\n"
         --stderr-regex "rank 1: MPI_File_open: MPI_ERR_UNSUPPORTED_OPERATION \\([^)]*\\): not implemented by progsim yet: MPI-IO \\(chapter 14\\) at t="
  RUN -n 2)
progsim_program_test(p2p.grequest PROGRAM grequest
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: grequest ok \\(8 checks\\)"
  RUN -n 2)
progsim_program_test(p2p.grequest_never_completed PROGRAM grequest PROGRAM_ARGS deadlock
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Grequest_start\\(\\), a generalized request waiting for its MPI_Grequest_complete"
  RUN -n 1)
progsim_program_test(runtime.errhandler PROGRAM errhandler
  EXPECT --expect-outcome aborted --expect-exit 1
         --stdout-regex "returned MPI_ERR_COMM: invalid communicator \\(class is MPI_ERR_COMM: 1\\)"
         --stderr-regex "rank 1: MPI_Comm_size: MPI_ERR_COMM \\(invalid communicator\\): MPI_COMM_NULL at t="
  RUN -n 2)
# A null buffer with data: MPI_ERR_BUFFER from every kind of call, not a crash (issue 14).
progsim_program_test(runtime.null_buffer PROGRAM null_buffer
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: null buffers ok \\(15 checks\\)"
  RUN -n 2)
progsim_program_test(runtime.null_buffer_fatal PROGRAM null_buffer PROGRAM_ARGS fatal
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stderr-regex "rank 1: MPI_Send: MPI_ERR_BUFFER \\(invalid buffer pointer\\): null buffer with data \\(only MPI_BOTTOM with a datatype of absolute addresses may be null\\) at t="
  RUN -n 2)
# MPI from a thread the program created: fatal and named, the report written (issue 14).
progsim_program_test(runtime.thread_call_funneled PROGRAM thread_call
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stdout-regex "worker: MPI_Is_thread_main says 0\n"
         --stderr-regex "rank 1: MPI_Send called from a thread other than the main thread, but MPI_Init_thread provided MPI_THREAD_FUNNELED \\(MPI-4.1 §11.6\\) at t="
         --check /ranks/1/state=failed
  RUN -n 2)
progsim_program_test(runtime.thread_call_single PROGRAM thread_call PROGRAM_ARGS init
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stderr-regex "rank 1: MPI_Send called from a thread other than the main thread, but MPI_Init provided MPI_THREAD_SINGLE \\(MPI-4.1 §11.6\\)"
  RUN -n 2 --progress thread)
progsim_program_test(runtime.thread_call_shared_program PROGRAM thread_call
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "MPI_Send called from a thread other than the main thread of a rank \\(which one is unknown without privatization\\)"
  RUN -n 2 --privatize=off)
progsim_program_test(runtime.environment PROGRAM environment
  EXPECT --expect-outcome completed --stdout-regex "initialized before: 0\ninitialized after: 1, provided=MPI_THREAD_FUNNELED\nMPI 4.1, library: progsim"
         --stdout-regex "finalized: 1"
  RUN -n 1)

# --- point-to-point protocols and progress policies (issue 3) ---
progsim_test_program(bsend_sleep ${PROJECT_SOURCE_DIR}/examples/bsend_then_sleep/bsend_sleep.c)
foreach(p rndv_compute ssend_then_send wait_while_matched)
  progsim_test_program(${p} ${p}.c)
endforeach()
progsim_test_program(head_to_head ${PROJECT_SOURCE_DIR}/examples/unsafe_send_order/unsafe_send_order.c)
progsim_test_program(test_loop ${PROJECT_SOURCE_DIR}/examples/test_loop/test_loop.c)

# Bsend of 8 MiB then sleep(10) (MPI-4.1 §2.9: moving buffered data out is a
# decoupled activity of the sender).
progsim_program_test(p2p.bsend_sleep.weak PROGRAM bsend_sleep
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: received at 10\\.00[0-9]+, data correct"
         --check "/ranks/1/finish_time~10.0007+-0.001"
  RUN -n 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(p2p.bsend_sleep.${policy} PROGRAM bsend_sleep
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: received at 0\\.00[0-9]+, data correct"
           --check "/ranks/1/finish_time~0.0007+-0.0005" --check "/ranks/0/finish_time~10.0+-0.001"
    RUN -n 2 --progress ${policy})
endforeach()

# 16 MiB rendezvous, receiver computes 5 s: under weak the sender's wait needs
# the receiver inside MPI (push); offload and ideal finish after the transfer.
progsim_program_test(p2p.rndv_receiver_computes.weak PROGRAM rndv_compute
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: send wait returned at 5\\.001"
         --check "/ranks/0/finish_time~5.0013+-0.001"
  RUN -n 2 --progress weak)
foreach(policy thread offload ideal)
  progsim_program_test(p2p.rndv_receiver_computes.${policy} PROGRAM rndv_compute
    EXPECT --expect-outcome completed --stdout-regex "rank 0: send wait returned at 0\\.0013"
           --stdout-regex "rank 1: receive wait returned at 5\\.000000, count 4194304, last 4194303"
           --check "/ranks/0/finish_time~0.00134+-0.0001"
    RUN -n 2 --progress ${policy})
endforeach()
# Receives matched while their rank waits for another request (MPI_Wait on
# tag 3, then MPI_Waitany, MPI_Waitall; a blocking MPI_Recv; an MPI_Sendrecv
# ring): every policy receives everything, and the waits return when the
# last message they need arrived (rank 1 sends tag 3 after 1 ms, rank 3's
# synchronous send comes after 2 ms, rank 2's tag 5 after 3 ms plus its
# 1 MiB rendezvous). Under offload the NIC's matches are looks, not
# wake-ups (progress.wake_every_completion.wait_while_matched.*).
foreach(policy weak thread offload ideal)
  progsim_program_test(p2p.wait_while_matched.${policy} PROGRAM wait_while_matched
    EXPECT --expect-outcome completed --expect-exit 0
           --stdout-regex "rank 0: tag 3 \\(13\\) at 0\\.00100[01]"
           --stdout-regex "rank 0: waitany -> 0 at 0\\.00100[01]"
           --stdout-regex "rank 0: all \\(11, 7, 14\\) at 0\\.00200[01]"
           --stdout-regex "rank 0: recv 15 at 0\\.00308[67]"
           --stdout-regex "rank 1: ring got 0 at 0\\.00308[789]"
           --check "/ranks/0/finish_time~0.003087+-0.00001"
    RUN -n 4 --progress ${policy})
endforeach()
# Sender computes 5 s: with the push rendezvous the receiver waits for it;
# with receiver-pull the waiting receiver completes early.
progsim_program_test(p2p.rndv_sender_computes.push.weak PROGRAM rndv_compute
  EXPECT --expect-outcome completed --stdout-regex "rank 1: receive wait returned at 5\\.001"
  RUN -n 2 --progress weak PROGRAM_ARGS sender-computes)
progsim_program_test(p2p.rndv_sender_computes.pull.weak PROGRAM rndv_compute
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: receive wait returned at 0\\.0013"
         --stdout-regex "rank 0: send wait returned at 5\\.0000"
         --check "/ranks/1/finish_time~0.00134+-0.0001" --check /messages/records/0/protocol=rendezvous-pull
  RUN -n 2 --progress weak --cfg rendezvous=pull PROGRAM_ARGS sender-computes)

# Head-to-head 4 MiB sends: unsafe; deadlock under every policy at the
# default eager threshold, completes when the threshold exceeds 4 MiB.
foreach(policy weak thread offload ideal)
  progsim_program_test(p2p.head_to_head.${policy} PROGRAM head_to_head
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Send\\(dest=1, tag=0, comm=MPI_COMM_WORLD, 4194304 bytes\\)"
           --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Send\\(dest=0, tag=0, comm=MPI_COMM_WORLD, 4194304 bytes\\)"
           --stderr-regex "waits for a matching receive on rank 1 \\(its RTS of 4194304 B is unmatched there\\)"
           --stderr-regex "cycle: rank 0 -> rank 1 -> rank 0"
           --stderr-regex "class: needs buffering"
           --check "/deadlock/class=needs buffering" --check /deadlock/eager_threshold_that_completes=4194304
    RUN -n 2 --progress ${policy})
  progsim_program_test(p2p.head_to_head_eager.${policy} PROGRAM head_to_head
    EXPECT --expect-outcome completed --stdout-lines 2
    RUN -n 2 --progress ${policy} --cfg eager-threshold=5MiB)
  progsim_program_test(p2p.ssend_then_send.${policy} PROGRAM ssend_then_send
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 1: a=a b=b at 0\\.0001"
    RUN -n 2 --progress ${policy})
endforeach()

# MPI_Test loop on a pending rendezvous while the receiver computes 1 s:
# about 1000 false tests under weak, 1 with NIC offload.
progsim_program_test(p2p.test_loop.weak PROGRAM test_loop
  EXPECT --expect-outcome completed --twice --stdout-regex "after 1001 false tests"
         --check /ranks/0/false_tests=1001 --check /ranks/0/tests=1002
  RUN -n 2 --progress weak)
progsim_program_test(p2p.test_loop.offload PROGRAM test_loop
  EXPECT --expect-outcome completed --twice --stdout-regex "after 1 false tests"
         --check /ranks/0/false_tests=1 --check /ranks/0/chunks/nic=1 --check /ranks/1/chunks/nic=1
  RUN -n 2 --progress offload)
progsim_test_program(compute_slowdown compute_slowdown.c)

# A progress thread per rank costs CPU: with 4 ranks on a 4-core host, each
# thread's polling (thread-poll-cost / thread-interval = 10% of a core)
# stretches 1 s of computation to 1/0.9 s. Without threads it stays 1 s.
progsim_program_test(p2p.thread_polling_slows_computation PROGRAM compute_slowdown
  EXPECT --expect-outcome completed --twice --stdout-regex "rank 0: 1 s of computation took 1\\.111111 s"
         --check "/ranks/0/progress_thread_cpu~0.111+-0.002"
  RUN -n 4 --ranks-per-node 4 --platform ${CMAKE_BINARY_DIR}/share/progsim/platforms/small-cluster.xml --progress thread)
progsim_program_test(p2p.no_thread_no_slowdown PROGRAM compute_slowdown
  EXPECT --expect-outcome completed --stdout-regex "rank 0: 1 s of computation took 1\\.000000 s"
  RUN -n 4 --ranks-per-node 4 --platform ${CMAKE_BINARY_DIR}/share/progsim/platforms/small-cluster.xml --progress weak)

# progsim compare: one table for all policies, byte-identical across reruns.
progsim_program_test(compare.bsend_sleep PROGRAM bsend_sleep
  EXPECT --command compare --expect-exit 0 --twice
         --stdout-regex "weak +completed +10\\.000672 s"
         --stdout-regex "ideal +completed +10\\.000000 s +672\\.654 us"
  RUN -n 2)
progsim_program_test(compare.head_to_head_json PROGRAM head_to_head
  EXPECT --command compare --expect-exit 3 --twice
         --stdout-regex "\"policy\": \"weak\",\n +\"outcome\": \"deadlock\""
         --stdout-regex "\"deadlock_class\": \"needs buffering\""
  RUN --json -n 2)

# Semantics that programs rely on, under every policy.
progsim_test_program(nonovertaking nonovertaking.c)
progsim_test_program(nonovertaking_sizes nonovertaking_sizes.c)
progsim_test_program(p2p_semantics p2p_semantics.c)
# Other ranks' MPI_Finalize does not wake a rank blocked in MPI_Recv: rank 0
# blocks once, from its call (t < 1 us) to the message's arrival (t = 1 s +
# a few us). Waking every rank at each finalize cost O(ranks^2) per run and
# gave the blocked rank looks that moved its timing.
foreach(policy weak thread offload ideal)
  progsim_program_test(p2p.finalize_elsewhere.${policy} PROGRAM finalize_elsewhere
    EXPECT --expect-outcome completed --twice --stdout-regex "rank 0 received 42"
           --timeline-regex "\"name\":\"MPI_Recv\",\"cat\":\"blocked\",\"ph\":\"X\",\"ts\":0\\.[0-9]+,\"dur\":1000000\\.[0-9]+,\"pid\":0,\"tid\":0}"
           --check "/ranks/0/blocked_time~1.000001+-0.0000005"
    RUN -n 16 --progress ${policy})
endforeach()

foreach(policy weak thread offload ideal)
  progsim_program_test(p2p.nonovertaking.${policy} PROGRAM nonovertaking
    EXPECT --expect-outcome completed --stdout-regex "received in send order: yes"
    RUN -n 2 --progress ${policy})
  # Whoever matches (the rank, its progress thread, its NIC), a later
  # message never overtakes an earlier one of the same sender and tag.
  progsim_program_test(p2p.nonovertaking_sizes.${policy} PROGRAM nonovertaking_sizes
    EXPECT --expect-outcome completed --twice
           --stdout-regex "received 400 messages of varying sizes in send order: yes"
           --stdout-regex "received a burst of 64 messages in send order: yes"
    RUN -n 2 --progress ${policy})
  progsim_program_test(p2p.semantics.${policy} PROGRAM p2p_semantics
    EXPECT --expect-outcome completed --twice --stdout-regex "all checks passed" --stdout-lines 18
    RUN -n 3 --progress ${policy})
endforeach()
# offload with a NIC matching table smaller than the 8 pre-posted receives:
# matching moves between the NIC and the host as receives are posted.
progsim_program_test(p2p.nonovertaking_sizes.offload_small_nic PROGRAM nonovertaking_sizes
  EXPECT --expect-outcome completed --twice
         --stdout-regex "received 400 messages of varying sizes in send order: yes"
         --stdout-regex "received a burst of 64 messages in send order: yes"
  RUN -n 2 --progress offload --cfg nic-match-entries=4)

# Bad input: a clear error naming the file or option, exit status 2.
progsim_program_test(input.too_many_ranks PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "error: 200 ranks do not fit: the platform offers 128 slots"
  RUN -n 200)
progsim_program_test(input.unknown_policy PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "unknown progress policy 'strong' \\(expected one of: weak, thread, offload, ideal\\)"
  RUN -n 2 --progress strong)
progsim_program_test(input.unknown_option PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "unknown option '--bogus'"
  RUN --bogus)
progsim_program_test(input.bad_cfg_value PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "--cfg eager-threshold=lots: not a number"
  RUN -n 2 --cfg eager-threshold=lots)
# Every --cfg number is checked against its range before the run (issue 14).
foreach(bad "eager-threshold=-1|0 to 1099511627776 bytes" "call-cost=-1|1e-12 to 1 s"
            "time-quantum=-1|0 to 1 s" "thread-interval=0|1e-09 to 1 s" "watchdog=-5|0 \\(off\\) or 0.001 to 1000000 s")
  string(REPLACE "|" ";" parts "${bad}")
  list(GET parts 0 setting)
  list(GET parts 1 allowed)
  string(REGEX REPLACE "=.*" "" key "${setting}")
  progsim_program_test(input.cfg_range.${key} PROGRAM hello
    EXPECT --expect-exit 2 --stdout-lines 0
           --stderr-regex "^progsim: error: --cfg ${setting}: out of range \\(allowed: ${allowed}\\)\n$"
    RUN -n 2 --progress thread --cfg ${setting})
endforeach()
# SimGrid settings: SimGrid 3.32 aborts on an unknown model name, and with
# Constant or TI on the default platform (exit 134 before this check), exits
# 0 after printing the choices for "help", and ptask_L07 gave a false
# deadlock; an unknown key's error listed all of SimGrid's keys. One line
# each, exit 2.
foreach(bad "network/model=Bogus|not a network/model progsim runs on \\(choices: CM02, LV08, SMPI, IB\\)"
            "network/model=help|not a network/model progsim runs on \\(choices: CM02, LV08, SMPI, IB\\)"
            "network/model=Constant|not a network/model progsim runs on \\(choices: CM02, LV08, SMPI, IB\\)"
            "host/model=ptask_L07|not a host/model progsim runs on \\(choices: default, compound\\)"
            "cpu/optim=TI|not a cpu/optim progsim runs on \\(choices: Lazy, Full\\)"
            "contexts/factory=thread|progsim sets SimGrid's contexts itself \\(boost contexts on one thread, sized by --cfg stack-size and --cfg guard-pages\\)"
            "bogus/key=1|Bad config key: bogus/key"
            # SimGrid takes any number for these: a precision of 0 hung, a
            # bandwidth factor of 0 or NaN aborted, a concurrency limit of 0
            # gave a false deadlock in MPI_Init, a breakpoint raised SIGTRAP.
            "surf/precision=0|out of range \\(allowed: a number above 0\\)"
            "maxmin/precision=-1|out of range \\(allowed: a number above 0\\)"
            "network/bandwidth-factor=0|out of range \\(allowed: a number above 0\\)"
            "network/latency-factor=-1|out of range \\(allowed: 0 or more\\)"
            "network/bandwidth-factor=nan|not a finite number"
            "maxmin/concurrency-limit=0|out of range \\(allowed: -1 \\(no limit\\) or 1 and more\\)"
            "debug/breakpoint=1|a SimGrid debugging aid that stops the process with SIGTRAP. progsim runs without it")
  string(REPLACE "|" ";" parts "${bad}")
  list(GET parts 0 setting)
  list(GET parts 1 reason)
  string(REGEX REPLACE "=.*" "" key "${setting}")
  string(REPLACE "/" "_" key "${key}")
  string(REGEX REPLACE ".*=" "" value "${setting}")
  progsim_program_test(input.simgrid_cfg.${key}_${value} PROGRAM hello
    EXPECT --expect-exit 2 --stdout-lines 0
           --stderr-regex "^progsim: error: --cfg ${setting}: ${reason}\n$"
    RUN -n 2 --cfg ${setting})
endforeach()
# Valid ones reach SimGrid and the run completes.
progsim_program_test(input.simgrid_cfg.valid PROGRAM hello
  EXPECT --expect-exit 0 --expect-outcome completed
  RUN -n 2 --cfg network/model=LV08 --cfg cpu/optim=Full)
# The twins of the numeric ones: in range, the run completes. 200 calls:
# the default 100,000 took 11 s here (12 s more for its round trip,
# traces.roundtrip.program.allreduce_loop, which takes these arguments, and
# 707 s under ASan) and checked nothing more.
progsim_program_test(input.simgrid_cfg.valid_numbers PROGRAM allreduce_loop
  EXPECT --expect-exit 0 --expect-outcome completed
  RUN -n 4 --ranks-per-node 2 --cfg surf/precision=1e-9 --cfg maxmin/precision=1e-5
      --cfg network/bandwidth-factor=0.5 --cfg network/latency-factor=0 --cfg maxmin/concurrency-limit=-1
  PROGRAM_ARGS 200)
foreach(value nan inf)
  progsim_program_test(input.cfg_not_finite.call_cost_${value} PROGRAM hello
    EXPECT --expect-exit 2 --stdout-lines 0 --stderr-regex "--cfg call-cost=${value}: not a finite number"
    RUN -n 2 --cfg call-cost=${value})
endforeach()
# Time limits: NaN and infinity were accepted (NaN ran without a limit).
foreach(case "time-limit|nan" "time-limit|inf" "time-limit|-1" "host-time-limit|nan" "host-time-limit|1e300")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 option)
  list(GET parts 1 value)
  progsim_program_test(input.${option}_${value} PROGRAM hello
    EXPECT --expect-exit 2 --stdout-lines 0
           --stderr-regex "^progsim: error: --${option}: '${value}' is not a positive number of seconds \\(at most 1e15\\)\n$"
    RUN -n 2 --${option} ${value})
endforeach()
# Output files that cannot be written: exit 2 before running, naming the path and the reason.
foreach(option report timeline record)
  progsim_program_test(input.unwritable_${option} PROGRAM hello
    EXPECT --expect-exit 2 --stdout-lines 0
           --stderr-regex "^progsim: error: --${option} /nonexistent/out.json: cannot write: No such file or directory\n$"
    RUN -n 2 --${option} /nonexistent/out.json)
endforeach()
progsim_program_test(input.unwritable_record_directory PROGRAM hello
  EXPECT --expect-exit 2 --stdout-lines 0
         --stderr-regex "--record /nonexistent/traces/: cannot write: No such file or directory"
  RUN -n 2 --record /nonexistent/traces/)
progsim_program_test(input.report_is_a_directory PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "--report /tmp: cannot write: Is a directory"
  RUN -n 2 --report /tmp)
progsim_program_test(input.invalid_platform PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "invalid platform: Parse error at .*CMakeLists.txt:1"
  RUN -n 2 --platform ${CMAKE_SOURCE_DIR}/CMakeLists.txt)
progsim_program_test(input.missing_platform PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "/nonexistent.xml: cannot read the platform file"
  RUN -n 2 --platform /nonexistent.xml)
# A directory opens as a stream and fails at the first read (an internal
# error, exit 70, for --params; SimGrid's "input in flex scanner failed" for
# --platform): the file named, and why.
foreach(case "platform|programs: cannot read the platform file: is a directory"
             "hostfile|programs: cannot read the hostfile: is a directory"
             "params|--params [^\n]*programs: cannot read the file: is a directory")
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 option)
  list(GET parts 1 message)
  progsim_program_test(input.directory_as_${option} PROGRAM hello
    EXPECT --expect-exit 2 --stdout-lines 0 --stderr-regex "^progsim: error: [^\n]*${message}\n$"
    RUN -n 2 --${option} ${CMAKE_CURRENT_SOURCE_DIR}/programs)
endforeach()
progsim_program_test(input.hostfile_unknown_host PROGRAM hello
  EXPECT --expect-exit 2 --stderr-regex "hostfile.txt:1: host 'nosuchhost' is not in the platform"
  RUN -n 2 --hostfile ${CMAKE_CURRENT_SOURCE_DIR}/programs/hostfile.txt)
progsim_program_test(input.missing_program PROGRAM no_such_program
  EXPECT --expect-exit 2 --stderr-regex "no_such_program: No such file or directory")
# user-time=measured charges host CPU time and says the run is not deterministic.
progsim_program_test(runtime.user_time_measured PROGRAM hello
  EXPECT --expect-outcome completed --check /deterministic=false --check /parameters/user-time=measured
  RUN -n 2 --cfg user-time=measured)

# --- busy-waiting on memory (issue 4, sim/memory) ---
# --privatize=off: the ranks share the program's globals, as ranks on one
# node share a window allocated with MPI_Win_allocate_shared.
progsim_test_program(memory_poll memory_poll.c)
progsim_program_test(memory.poll_until_written PROGRAM memory_poll PROGRAM_ARGS write
  EXPECT --expect-outcome completed --expect-exit 0 --twice
         --stdout-regex "rank 0: progsim_watch_memory returned 1\n"
         --stdout-regex "rank 0: flags\\[4\\]=222 at 20\\.0000\n"
         --check "/ranks/0/memory_polling_time~20+-0.001" --check "/ranks/0/memory_polls_blocked=1"
         --check "/ranks/1/memory_polling_time=0" --check /memory_watch=on
  RUN -n 2 --privatize=off)
progsim_program_test(memory.poll_on_stack PROGRAM memory_poll PROGRAM_ARGS stack
  EXPECT --expect-outcome completed --expect-exit 0 --twice
         --stdout-regex "rank 0: local=7 at 5\\.0000\n" --check "/ranks/0/memory_polling_time~5+-0.001"
  RUN -n 2 --privatize=off)
progsim_program_test(memory.poll_deadlock PROGRAM memory_poll PROGRAM_ARGS recv
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: polling watched memory 'flags' at offset 16 since t=0\\.[0-9]+ s"
         --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Recv"
         --stderr-regex "class: memory synchronization - rank 0 busy-waits on memory that nothing can write"
         --check "/deadlock/class=memory synchronization" --check "/deadlock/ranks/0/watch=flags"
         --check "/deadlock/ranks/0/offset=16" --check "/ranks/0/state=polling-memory"
  RUN -n 2 --privatize=off)
progsim_program_test(memory.watchdog PROGRAM memory_poll PROGRAM_ARGS spin
  EXPECT --expect-outcome stuck --expect-exit 4
         --stderr-regex "rank 0 is stuck at t=[0-9.]+ s: it ran user code for 1 s of host CPU time without an MPI call or an access to watched memory, at spin_forever \\(.*memory_poll\\.c:[0-9]+\\)"
         --check /deterministic=false --check /ranks/0/state=failed
  RUN -n 2 --privatize=off --cfg watchdog=1)
# The allocator's accesses beside a watched heap window, while the rank owes
# CPU time, do not settle the debt inside malloc (FaultHandler.cpp): this
# crashed progsim under thread, offload and ideal.
progsim_test_program(heap_beside_window heap_beside_window.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(memory.heap_beside_window.${policy} PROGRAM heap_beside_window
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: sum 897, put 103\n" --stdout-regex "rank 3: sum 897, put 102\n"
    RUN -n 4 --progress ${policy} --cfg window-watch=all)
endforeach()
# A rank that spends its time in malloc and free beside a lazily watched heap
# window: the watchdog's arming and ending diversions wait until it is out of
# the allocator (AllocatorCalls.hpp); diverted midway, the simulator's own
# allocations met a half-updated heap.
progsim_test_program(allocator_spin allocator_spin.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(memory.allocator_watchdog.${policy} PROGRAM allocator_spin
    EXPECT --expect-outcome stuck --expect-exit 4
           --stderr-regex "rank 0 is stuck at t=[0-9.]+ s: it ran user code for 1 s of host CPU time without an MPI call or an access to watched memory, at main \\(allocator_spin\\.c:(2[3-9]|30)\\)"
           --check /ranks/0/state=failed
    RUN -n 2 --progress ${policy} --cfg watchdog=1 --cfg memory-watch-arm=0.01)
endforeach()
# Rank 1 runs a privatized copy (a deleted rank-1.so): the location is still the program's source line.
progsim_program_test(memory.watchdog_privatized PROGRAM memory_poll PROGRAM_ARGS spin_rank1
  EXPECT --expect-outcome stuck --expect-exit 4
         --stderr-regex "rank 1 is stuck at t=[0-9.]+ s: it ran user code for 1 s of host CPU time without an MPI call or an access to watched memory, at spin_forever \\(memory_poll\\.c:(19|20)\\) \\(watchdog"
  RUN -n 2 --cfg watchdog=1)
progsim_program_test(memory.watch_off PROGRAM memory_poll PROGRAM_ARGS prewritten
  EXPECT --expect-outcome completed --expect-exit 0 --twice
         --stdout-regex "rank 0: progsim_watch_memory returned 0\n" --stdout-regex "rank 0: flags\\[4\\]=222 at 0\\.0"
         --check /memory_watch=off --check "/ranks/0/memory_polls=0"
  RUN -n 2 --privatize=off --cfg memory-watch=no)
progsim_test_program(memory_poll_cxx memory_poll_cxx.cpp)
progsim_program_test(memory.poll_deadlock_cxx PROGRAM memory_poll_cxx
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 0: polling watched memory 'flag of a C\\+\\+ rank' at offset 0"
  RUN -n 2 --privatize=off)
