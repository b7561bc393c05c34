# Fault injection (issue 14): every way a run can end early, while the other
# rank waits in each situation, under each policy. One ending path must
# serve them all: the documented exit status and outcome, a message naming
# the rank, the call and the rank's simulated time, the report written, the
# timeline written and marked partial, and no temporary directory left.
# faults.c: rank 0 faults 1 ms (simulated) after an MPI_Win_fence; rank 1
# waits in point-to-point, a barrier, a fence epoch, a spin on watched
# window memory, or an MPI_Iprobe loop (still looping when rank 0 faults).
progsim_test_program(faults faults.c)

# Expected ending per fault: outcome, exit status, message on stderr.
set(at_fault "at t=0\\.0010[0-9]+ s")
set(faults_mpi_abort aborted 7 "rank 0 called MPI_Abort\\(MPI_COMM_WORLD, 7\\) ${at_fault}")
set(faults_fatal_tag aborted 1 "rank 0: MPI_Send: MPI_ERR_TAG \\([^)]*\\): [^\n]*${at_fault}")
set(faults_segv crashed 139
    "rank 0 crashed: SIGSEGV \\(segmentation fault\\) ${at_fault} in user code after MPI_Win_fence")
set(faults_fpe crashed 136 "rank 0 crashed: SIGFPE \\(arithmetic exception\\) ${at_fault} in user code after MPI_Win_fence")
set(faults_abort crashed 134 "rank 0 crashed: SIGABRT \\(abort\\) ${at_fault} in user code after MPI_Win_fence")
set(faults_exit aborted 5
    "rank 0 exited \\(code 5\\) without calling MPI_Finalize ${at_fault}; its last MPI call was MPI_Win_fence")
set(faults__exit ${faults_exit})
set(faults_quick_exit ${faults_exit})
set(faults_usr1 crashed 138
    "rank 0 crashed: SIGUSR1 \\(user defined signal 1\\) ${at_fault} in user code after MPI_Win_fence, at fault \\(faults\\.c:[0-9]+\\)")
set(faults_time_limit stuck 4 "simulated time limit of t=0\\.002000000 s reached; ranks still running: 0, 1")

# The report keeps each rank's state as it was when the run ended.
set(peer_state_p2p blocked)
set(peer_state_coll blocked)
set(peer_state_rma blocked)
set(peer_state_poll polling-memory)
set(peer_state_iprobe in-mpi)

foreach(fault mpi_abort fatal_tag segv fpe abort exit _exit quick_exit usr1 time_limit)
  list(GET faults_${fault} 0 outcome)
  list(GET faults_${fault} 1 status)
  list(GET faults_${fault} 2 message)
  set(limit "")
  set(faulting_state failed)
  if(fault STREQUAL "time_limit")
    set(limit --time-limit 0.002)
    set(faulting_state sleeping)
  endif()
  foreach(peer p2p coll rma poll iprobe)
    foreach(policy weak thread offload ideal)
      set(twice "")
      if(policy STREQUAL "weak" OR peer STREQUAL "p2p")
        set(twice --twice)  # a subset, to keep the matrix fast: outputs are byte-identical
      endif()
      progsim_program_test(faults.${fault}.${peer}.${policy} PROGRAM faults PROGRAM_ARGS ${fault} ${peer}
        EXPECT --expect-outcome ${outcome} --expect-exit ${status} --stderr-regex "${message}"
               --check /exit_status=${status} --check /ranks/0/state=${faulting_state}
               --check /ranks/1/state=${peer_state_${peer}} --timeline-regex "\"partial\": true"
               --timeline-regex "\"outcome\": \"${outcome}\"" --no-temporary-files ${twice}
        RUN -n 2 --progress ${policy} ${limit})
    endforeach()
  endforeach()
endforeach()

# Other fatal MPI errors and a heap corruption, with the peer blocked in
# point-to-point.
set(faults_fatal_comm aborted 1 "rank 0: MPI_Send: MPI_ERR_COMM \\([^)]*\\): [^\n]*${at_fault}")
set(faults_fatal_count aborted 1 "rank 0: MPI_Send: MPI_ERR_COUNT \\([^)]*\\): [^\n]*${at_fault}")
set(faults_itimer crashed 154 "rank 0 crashed: SIGVTALRM \\(virtual timer expired\\) ${at_fault} in user code after MPI_Win_fence, at fault \\(faults\\.c:[0-9]+\\)")
set(faults_heap crashed 134 "rank 0 crashed: SIGABRT \\(abort\\) ${at_fault} in user code after MPI_Win_fence")
# After the heap corruption progsim's own allocations abort too: the report
# has the outcome and the message only (no ranks, no timeline).
set(faults_fatal_comm_checks --check /ranks/1/state=blocked --timeline-regex "\"partial\": true")
set(faults_fatal_count_checks ${faults_fatal_comm_checks})
set(faults_heap_checks --check "/partial=the simulator's memory was damaged: no other field could be written")
set(faults_p2p fatal_comm fatal_count itimer heap)
if(PROGSIM_SANITIZE)
  # Under AddressSanitizer, malloc is ASan's allocator, which keeps its
  # metadata away from the chunks: overwriting a freed chunk corrupts
  # nothing, glibc's abort never comes and the program goes on.
  list(REMOVE_ITEM faults_p2p heap)
endif()
foreach(fault ${faults_p2p})
  list(GET faults_${fault} 0 outcome)
  list(GET faults_${fault} 1 status)
  list(GET faults_${fault} 2 message)
  foreach(policy weak thread offload ideal)
    progsim_program_test(faults.${fault}.p2p.${policy} PROGRAM faults PROGRAM_ARGS ${fault} p2p
      EXPECT --expect-outcome ${outcome} --expect-exit ${status} --stderr-regex "${message}"
             --check /exit_status=${status} ${faults_${fault}_checks} --no-temporary-files
      RUN -n 2 --progress ${policy})
  endforeach()
endforeach()

# abort() and SIGFPE before anything flushed the rank's CPU costs: the
# time is the rank's clock (MPI_Init and MPI_Comm_rank cost 50 ns each),
# not the engine's (still 0).
foreach(fault abort fpe)
  list(GET faults_${fault} 1 status)
  progsim_program_test(faults.${fault}.at_start.weak PROGRAM faults PROGRAM_ARGS ${fault} none at_start
    EXPECT --expect-outcome crashed --expect-exit ${status} --twice
           --stderr-regex "rank 0 crashed: SIG[A-Z]+ \\([a-z ]+\\) at t=0\\.000000100 s in user code after MPI_Comm_rank"
    RUN -n 2 --progress weak)
endforeach()

# An uncaught std::bad_alloc (here: 10^8 ranks in 1.5 GB of address space)
# is a clear error, exit 2, not an abort. Not under AddressSanitizer: its
# shadow memory needs terabytes of address space, so it cannot start under
# `ulimit -v`.
if(NOT PROGSIM_SANITIZE)
  add_test(NAME faults.out_of_memory
    COMMAND bash -c "ulimit -v 1500000; out=$(\"$0\" run -n 100000000 --ranks-per-node 1000000 \"$1\" none p2p 2>&1); s=$?; echo \"$out\"; echo \"exit status $s\"; test $s = 2 && grep -q 'progsim: error: out of memory: this run needs more memory' <<< \"$out\""
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/faults)
  set_tests_properties(faults.out_of_memory PROPERTIES LABELS program)
endif()

# SIGINT / SIGTERM sent to progsim: at a safe point of a rank (hang: rank 1
# loops on MPI_Iprobe), or, when no rank reaches one (spin: rank 0 never
# leaves user code), by diverting the rank in user code a second later
# (sim/Interruption.hpp); and to progsim compare.
find_package(Python3 COMPONENTS Interpreter REQUIRED)
# SIGHUP and SIGUSR1 from another process end the run as interrupted too
# (a rank's own raise is a crash, above); before, progsim died of them with
# no report.
foreach(case "INT;hang;run" "TERM;hang;run" "INT;spin;run" "TERM;hang;compare" "HUP;hang;run" "USR1;spin;run")
  list(GET case 0 sig)
  list(GET case 1 fault)
  list(GET case 2 command)
  add_test(NAME faults.interrupt.${sig}.${fault}.${command}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/programs/interrupt_test.py
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/faults ${sig} ${fault} ${command})
  set_tests_properties(faults.interrupt.${sig}.${fault}.${command} PROPERTIES LABELS program TIMEOUT 60)
endforeach()

# A second signal, or the grace period, while rank 0 is busy in the C
# library (malloc/free, fprintf(stdout), a thread of its own in malloc/free
# receiving the signals): many runs each, every one ending within 10 s of
# the first signal with exit 128 + signal, the message, the report and
# timeline valid JSON (interrupt_repeat_test.py, docs/design/interruption.md).
# Main's build before session 20 ended the run inside the handler; these
# failed with it (2026-11-28): printf.twice and printf.grace hung on
# stdout's lock (run 18 and 17 of 30), thread_malloc.twice exited 0,
# thread_malloc.hup ended as SIGINT (the SIGHUP sent to the program's thread
# was taken for its crash), flood.blocked and flood.thrice hung; under ASan
# also malloc.twice (ASan's allocator lock, run 8 of 30) and
# thread_malloc.twice. malloc.grace, malloc.hup and thread_malloc.grace
# passed with main's build (normal and ASan), malloc.limit with the normal
# one: they guard. flood.*: progsim's
# stdout is a pipe nobody reads, so only the minimal ending (MinimalEnding)
# can end the run: 6 s after the signal, or at once at a third signal.
progsim_test_program(interrupt_busy interrupt_busy.c)
set_property(GLOBAL APPEND PROPERTY PROGSIM_PROGRAM_OUTCOMES_interrupt_busy interrupted)
foreach(case "malloc;twice;30" "malloc;grace;30" "malloc;hup;30" "malloc;limit;20" "printf;twice;30"
             "printf;grace;30" "thread_malloc;twice;30" "thread_malloc;grace;20" "thread_malloc;hup;30"
             "flood;blocked;2" "flood;thrice;2")
  list(GET case 0 mode)
  list(GET case 1 schedule)
  list(GET case 2 runs)
  add_test(NAME faults.interrupt.busy.${mode}.${schedule}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/programs/interrupt_repeat_test.py
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/interrupt_busy ${mode} ${schedule} ${runs})
  set_tests_properties(faults.interrupt.busy.${mode}.${schedule} PROPERTIES LABELS program TIMEOUT 240)
endforeach()

# The host time limit (--host-time-limit, Open MPI's --timeout, MPIEXEC_TIMEOUT
# for progsim-mpiexec) ends a run that would go on, as a signal would: at a
# safe point of a rank (hang: rank 1 loops on MPI_Iprobe) or, when no rank
# reaches one (spin: rank 0 never leaves user code), a second later; the
# report is written. A run that ends first is not touched by it.
progsim_program_test(faults.host_time_limit.hang PROGRAM faults PROGRAM_ARGS hang iprobe
  EXPECT --expect-outcome interrupted --expect-exit 142
         --stderr-regex "host time limit of 1 s \\(--host-time-limit\\) reached at t=[0-9.]+ s \\(rank 1 in MPI_Iprobe\\)"
  RUN -n 2 --host-time-limit 1)
progsim_program_test(faults.host_time_limit.spin PROGRAM faults PROGRAM_ARGS spin iprobe
  EXPECT --expect-outcome interrupted --expect-exit 142
         --stderr-regex "host time limit of 0.5 s \\(--timeout\\) reached at t="
  RUN -n 2 --timeout=0.5)
progsim_program_test(faults.host_time_limit.not_reached PROGRAM sleep_wtime
  EXPECT --expect-outcome completed --expect-exit 0 --twice
  RUN -n 2 --host-time-limit 600)
add_test(NAME faults.host_time_limit.mpiexec_timeout
  COMMAND bash -c "out=$(MPIEXEC_TIMEOUT=1 \"$0\" -n 2 \"$1\" hang iprobe 2>&1); s=$?; echo \"$out\"; echo \"exit status $s\"; test $s = 142 && grep -q 'host time limit of 1 s (MPIEXEC_TIMEOUT) reached' <<< \"$out\""
          ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR}/faults)
set_tests_properties(faults.host_time_limit.hang faults.host_time_limit.spin faults.host_time_limit.mpiexec_timeout
  PROPERTIES TIMEOUT 60)
set_tests_properties(faults.host_time_limit.mpiexec_timeout PROPERTIES LABELS program)

# The Paje timeline of a run that did not complete says so in its first line.
progsim_program_test(faults.segv.p2p.weak.paje PROGRAM faults PROGRAM_ARGS segv p2p
  EXPECT --expect-outcome crashed --expect-exit 139 --twice
         --timeline-regex "^# partial timeline: the run ended as crashed at 0\\.0010[0-9]+ s\n%EventDef"
  RUN -n 2 --progress weak --timeline-format paje)

# A rank that ignores, handles or blocks progsim's signals: its dispositions
# are given back to it but not installed, so the fault is still the rank's
# reported crash (before: progsim died with no report, or the program's
# handler ran in its place) and memory watching goes on (kept: rank 0 polls
# watched memory with a SIGSEGV handler of its own).
progsim_test_program(signal_handlers signal_handlers.c)
set(segv_at_store "rank 1 crashed: SIGSEGV \\(segmentation fault\\) at t=[0-9.]+ s in user code after MPI_Comm_rank, at store_through_null \\(signal_handlers\\.c:40\\)")
foreach(policy weak thread offload ideal)
  foreach(mode ignore handler block)
    progsim_program_test(faults.signal_handlers.${mode}.${policy} PROGRAM signal_handlers PROGRAM_ARGS ${mode}
      EXPECT --expect-outcome crashed --expect-exit 139 --stderr-regex "${segv_at_store}" --twice
             --check /ranks/1/state=failed --no-temporary-files
      RUN -n 2 --privatize=off --progress ${policy})
  endforeach()
  progsim_program_test(faults.signal_handlers.usr1_default.${policy} PROGRAM signal_handlers PROGRAM_ARGS usr1_default
    EXPECT --expect-outcome crashed --expect-exit 138 --twice
           --stderr-regex "rank 1 crashed: SIGUSR1 \\(user defined signal 1\\) at t=[0-9.]+ s in user code after MPI_Comm_rank, at main \\(signal_handlers\\.c:66\\)"
    RUN -n 2 --privatize=off --progress ${policy})
  progsim_program_test(faults.signal_handlers.kept.${policy} PROGRAM signal_handlers PROGRAM_ARGS kept
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 1: handler given back: yes, SIGUSR1 handled: yes\n"
           --stdout-regex "rank 0: flag seen at 2\\.0000\n"
    RUN -n 2 --privatize=off --progress ${policy})
endforeach()

# A rank's own thread (pthread_create, wrapped by progsim-cc) ends its
# rank's process: its crash is the rank's, named with the thread's creation
# site and its fault's line; its exit(), _exit() and quick_exit() are the
# rank's own. Before, a thread's segfault was reported as progsim's crash
# (internal error, 139) and its exit() ended progsim with no report.
# thread_faults.c: rank 1 creates the thread 1 ms in and joins it; rank 0
# waits in MPI_Recv for rank 1's message. `none` is the correct twin.
progsim_test_program(thread_faults thread_faults.c)
set(thread_at "at t=0\\.0010001[0-9]+ s in a thread created by rank 1 at run_thread \\(thread_faults\\.c:78\\)")
set(thread_main ". its main thread was in user code after MPI_Comm_rank")  # '.': a ';' would split the list
set(thread_none completed 0 "^$" "rank 1: thread joined\nrank 1: exit handler\nrank 0 received 42\n" finished)
set(thread_segv crashed 139
    "rank 1 crashed: SIGSEGV \\(segmentation fault\\) ${thread_at}, at store_null \\(thread_faults\\.c:38\\)${thread_main}"
    "^$" failed)
set(thread_abort crashed 134
    "rank 1 crashed: SIGABRT \\(abort\\) ${thread_at}, at worker \\(thread_faults\\.c:48\\)${thread_main}" "^$" failed)
set(thread_usr1 crashed 138
    "rank 1 crashed: SIGUSR1 \\(user defined signal 1\\) ${thread_at}, at worker \\(thread_faults\\.c:50\\)${thread_main}"
    "^$" failed)
set(thread_overflow crashed 139
    "rank 1 crashed: SIGSEGV \\(segmentation fault\\) ${thread_at}, at recurse \\(thread_faults\\.c:31\\)${thread_main}"
    "^$" failed)
set(thread_nested crashed 139
    "rank 1 crashed: SIGSEGV \\(segmentation fault\\) at t=0\\.0010001[0-9]+ s in a thread created by rank 1 at worker \\(thread_faults\\.c:55\\), at store_null \\(thread_faults\\.c:38\\)${thread_main}"
    "^$" failed)
set(thread_exit_message
    "rank 1 exited \\(code 3\\) without calling MPI_Finalize at t=0\\.0010001[0-9]+ s. its last MPI call was MPI_Comm_rank")
set(thread_exit aborted 3 "${thread_exit_message}" "^rank 1: exit handler\n$" failed)
set(thread__exit aborted 3 "${thread_exit_message}" "^$" failed)
set(thread_quick_exit aborted 3 "${thread_exit_message}" "^$" failed)
set(thread_finalized completed 4 "rank 1 returned exit code 4 after MPI_Finalize"
    "^rank 1: exit handler\nrank 0 received 42\n$" finished)
# faults.FAMILY.MODE.POLICY for each mode: PREFIX_MODE lists the outcome,
# exit status, stderr and stdout regexes, rank 1's state in the report,
# then options of progsim run, if any. A mode's program argument is its
# name without a "_shared" suffix.
function(thread_fault_tests family program prefix)
  foreach(mode ${ARGN})
    list(GET ${prefix}_${mode} 0 outcome)
    list(GET ${prefix}_${mode} 1 status)
    list(GET ${prefix}_${mode} 2 message)
    list(GET ${prefix}_${mode} 3 output)
    list(GET ${prefix}_${mode} 4 state)
    set(options ${${prefix}_${mode}})
    list(REMOVE_AT options 0 1 2 3 4)
    string(REGEX REPLACE "_shared$" "" argument ${mode})
    foreach(policy weak thread offload ideal)
      progsim_program_test(faults.${family}.${mode}.${policy} PROGRAM ${program} PROGRAM_ARGS ${argument}
        EXPECT --expect-outcome ${outcome} --expect-exit ${status} --stderr-regex "${message}"
               --stdout-regex "${output}" --check /exit_status=${status} --check /ranks/1/state=${state}
               --no-temporary-files --twice
        RUN -n 2 --progress ${policy} ${options})
    endforeach()
  endforeach()
endfunction()
thread_fault_tests(thread thread_faults thread none segv abort usr1 overflow nested exit _exit quick_exit finalized)

# A child that a rank forks is not an MPI process: it may exec, exit or run
# plain code in host time, and it never goes on with the run (an MPI call
# ends it with status 1 and a message naming the fork's and the call's
# lines) nor writes the run's outputs; its crash is named and it dies of
# its signal. Before, a child that did not exec went on with the simulation
# beside its parent, both writing the report. fork_child.c: rank 1 forks 1
# ms in and waits for the child; the run itself always completes.
progsim_test_program(fork_child fork_child.c)
set(fork_by "the child process that rank 1 forked at main \\(fork_child\\.c:37\\)")
set(fork_ended ": a forked child is not an MPI process \\(it may run plain code, exec another program or exit\\), so it ends here with status 1; the parent goes on with the run")
set(fork_exec 0 "^$")
set(fork__exit 7 "^$")
set(fork_exit 7 "^child: exit handler\n$")
set(fork_return 5 "^$")
set(fork_sleep 0 "^$")
set(fork_mpi 1 "^progsim: ${fork_by} called MPI_Send at main \\(fork_child\\.c:56\\)${fork_ended}\n$")
set(fork_finalize 1 "^progsim: ${fork_by} called MPI_Send at main \\(fork_child\\.c:70\\)${fork_ended}\n$")
foreach(mode exec _exit exit return sleep mpi finalize segv)
  if(mode STREQUAL "segv")
    set(child "rank 1: the child died of signal 11")
    set(message "^progsim: ${fork_by} died of SIGSEGV \\(segmentation fault\\)\n$")
  else()
    list(GET fork_${mode} 0 code)
    list(GET fork_${mode} 1 message)
    set(child "rank 1: the child exited with status ${code}")
  endif()
  foreach(policy weak thread offload ideal)
    progsim_program_test(faults.fork.${mode}.${policy} PROGRAM fork_child PROGRAM_ARGS ${mode}
      EXPECT --expect-outcome completed --expect-exit 0 --stdout-regex "^${child}\nrank 0 received 42\n$"
             --stderr-regex "${message}" --check /exit_status=0 --check /ranks/1/state=finished
             --no-temporary-files --twice
      RUN -n 2 --progress ${policy})
  endforeach()
endforeach()

# A std::thread is created inside libstdc++, not by the program's own
# pthread_create call: with privatization its rank is known from the code
# it runs (no creation site), without it the rank is unknown. Its exit must
# not unwind main through the joinable std::thread (std::terminate, which
# was reported as rank 1's crash at std::__terminate).
progsim_test_program(thread_faults_std thread_faults_std.cpp)
set(std_thread_main ". its main thread was in user code after MPI_Comm_rank")
set(std_none completed 0 "^$" "^rank 0 received 42\n$" finished)
set(std_segv crashed 139
    "rank 1 crashed: SIGSEGV \\(segmentation fault\\) at t=[0-9.]+ s in a thread created by rank 1, at work\\(char const\\*\\) \\(thread_faults_std\\.cpp:25\\)${std_thread_main}"
    "^$" failed)
set(std_exit aborted 6 "rank 1 exited \\(code 6\\) without calling MPI_Finalize at t=[0-9.]+ s. its last MPI call was MPI_Comm_rank" "^$"
    failed)
set(std_segv_shared crashed 139
    "a thread of the program crashed: SIGSEGV \\(segmentation fault\\) at t=[0-9.]+ s, at work\\(char const\\*\\) \\(thread_faults_std\\.cpp:25\\) \\(not created by the program's own pthread_create call: its rank is unknown\\)"
    "^$" user-code --privatize=off)
set(std_exit_shared aborted 6
    "a thread of the program not created by its own pthread_create call \\(so of an unknown rank\\) called exit\\(6\\) at t=[0-9.]+ s"
    "^$" user-code --privatize=off)
thread_fault_tests(std_thread thread_faults_std std none segv exit segv_shared exit_shared)

# Without memory watching and without the watchdog the trampoline that
# takes a thread's request to the simulator thread was not set up: the
# rank joining the thread waited in pthread_join forever (progsim hung).
foreach(mode segv exit)
  list(GET thread_${mode} 0 outcome)
  list(GET thread_${mode} 1 status)
  list(GET thread_${mode} 2 message)
  progsim_program_test(faults.thread.${mode}.no_trampoline_users PROGRAM thread_faults PROGRAM_ARGS ${mode}
    EXPECT --expect-outcome ${outcome} --expect-exit ${status} --stderr-regex "${message}" --twice
    RUN -n 2 --cfg memory-watch=off --cfg watchdog=0)
endforeach()
progsim_program_test(faults.thread_call.no_trampoline_users PROGRAM thread_call
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "rank 1: MPI_Send called from a thread other than the main thread"
  RUN -n 2 --cfg memory-watch=off --cfg watchdog=0)
set_tests_properties(faults.thread.segv.no_trampoline_users faults.thread.exit.no_trampoline_users
  faults.thread_call.no_trampoline_users PROPERTIES TIMEOUT 60)

# The forked child's memory is not watched: its write to watched window
# memory must not trap into the simulator (which, copied into the child,
# ran rank 1 there: "rank 1 saw 5" from the child, which then ended at
# rank 1's MPI_Win_unlock_all). Not under weak: the child's write is
# invisible to rank 1's poll (blocked in the simulator, it waits for a
# write by a rank or an RMA operation), so weak ends in a deadlock where an
# MPI job would go on.
progsim_test_program(fork_window fork_window.c)
foreach(policy thread offload ideal)
  progsim_program_test(faults.fork.window.${policy} PROGRAM fork_window
    EXPECT --expect-outcome completed --expect-exit 0 --stderr-regex "^$"
           --stdout-regex "^rank 0: the child exited with status 5\nrank 1 saw 1\n$" --no-temporary-files --twice
    RUN -n 2 --ranks-per-node 2 --progress ${policy})
endforeach()
