# Program tests: each MPI program with the outcome it must have.
# Times are simulated seconds; tolerances are stated per check.

progsim_test_program(hello hello.c)
progsim_test_program(hello_cxx hello_cxx.cpp)
progsim_test_program(sleep_wtime sleep_wtime.c)
progsim_test_program(global_counter global_counter.c)
progsim_test_program(segfault segfault.c)
progsim_test_program(abort abort.c)
progsim_test_program(abort_signal abort_signal.c)
progsim_test_program(no_finalize no_finalize.c)
progsim_test_program(barrier_mismatch barrier_mismatch.c)
progsim_test_program(errhandler errhandler.c)
progsim_test_program(environment environment.c)

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
         --stdout-regex "after sleep\\(3\\): 3\\.0000"
         --stdout-regex "after busy loop: 3\\.50"
         --stdout-regex "after usleep\\+nanosleep: 3\\.875"
         --check "/ranks/0/finish_time~3.875+-0.001"
         --check "/simulated_time~3.875+-0.001"
  RUN -n 2)
progsim_program_test(runtime.globals_privatized PROGRAM global_counter
  EXPECT --expect-outcome completed --stdout-regex "rank 3: counter=1 calls=1\n" --twice
  RUN -n 4)
progsim_program_test(runtime.globals_shared_without_privatization PROGRAM global_counter
  EXPECT --expect-outcome completed --stdout-regex "rank 0: counter=4 calls=1\n"
         --stdout-regex "rank 3: counter=4 calls=4\n" --check /privatization=false --twice
  RUN -n 4 --privatize=off)
progsim_program_test(runtime.segfault PROGRAM segfault
  EXPECT --expect-outcome crashed --expect-exit 139 --twice
         --stderr-regex "rank 3 crashed: SIGSEGV \\(segmentation fault\\) at t=[0-9.]+ s in user code after MPI_Barrier"
         --stdout-regex "rank 3 before the crash" --check /ranks/3/state=failed
  RUN -n 4)
progsim_program_test(runtime.abort PROGRAM abort
  EXPECT --expect-outcome aborted --expect-exit 3 --twice
         --stderr-regex "rank 1 called MPI_Abort\\(MPI_COMM_WORLD, 3\\) at t=1\\.0000"
  RUN -n 4)
progsim_program_test(runtime.abort_signal PROGRAM abort_signal
  EXPECT --expect-outcome crashed --expect-exit 134
         --stderr-regex "rank 0 crashed: SIGABRT \\(abort\\) at t=[0-9.]+ s in user code after MPI_Comm_rank"
  RUN -n 2)
progsim_program_test(runtime.exit_without_finalize PROGRAM no_finalize
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "rank 2 exited \\(code 0\\) without calling MPI_Finalize at t=[0-9.]+ s. its last MPI call was MPI_Comm_rank"
  RUN -n 4)
progsim_program_test(runtime.barrier_deadlock PROGRAM barrier_mismatch
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 1: blocked in MPI_Barrier\\(MPI_COMM_WORLD\\)"
         --stderr-regex "rank 0: finished at"
  RUN -n 3)
progsim_program_test(runtime.errhandler PROGRAM errhandler
  EXPECT --expect-outcome aborted --expect-exit 1
         --stdout-regex "returned MPI_ERR_COMM: invalid communicator \\(class is MPI_ERR_COMM: 1\\)"
         --stderr-regex "rank 1: MPI_Comm_size: MPI_ERR_COMM \\(invalid communicator\\): MPI_COMM_NULL at t="
  RUN -n 2)
progsim_program_test(runtime.environment PROGRAM environment
  EXPECT --expect-outcome completed --stdout-regex "initialized before: 0\ninitialized after: 1, provided=MPI_THREAD_FUNNELED\nMPI 4.1, library: progsim"
         --stdout-regex "finalized: 1"
  RUN -n 1)
