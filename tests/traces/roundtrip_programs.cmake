# Record -> replay round trip of every test program (issue 19: "every
# program under tests/programs/ that completes"), under all four policies
# (tests/traces/roundtrip_program.sh, traces.roundtrip.program.NAME):
# - each program a test of progsim_program_test expects to complete, with
#   that test's run options and arguments (its first such registration,
#   tests/CMakeLists.txt);
# - each program whose tests expect it to finish erroneous and never to
#   complete (its first such registration): the same errors in the replay;
# - the deadlocking runs of deadlocking_tests, and the runs of other_runs.
# Programs the recorder refuses are listed in refused_programs with the call
# it refuses; their test checks that the replay stops at that call, so it
# fails (and the entry must go) once the recorder learns it;
# "CALL@POLICIES": refused under those policies only, a round trip under the
# others. Programs not round-tripped here are in not_roundtripped with why;
# traces.roundtrip.every_program checks that every program is accounted for.
# Recorded since branch issue19-roundtrip (were refused): MPI_Cancel
# (cancel_send, lc_request, p2p_semantics; with whether it succeeded),
# MPI_Request_get_status (race_seen), the Sessions Model (sessions), and the
# calls of the attribute delete callbacks MPI_Finalize runs
# (finalize_callbacks: an MPI_Bsend, made by the replay's own delete
# callback). Since branch issue19-grequest: generalized requests (grequest:
# MPI_Grequest_start, MPI_Grequest_complete, and the calls its query
# function makes inside MPI_Wait, MPI_Status_set_elements and
# MPI_Status_set_cancelled, made by the replay's own query function).
# Refused: none.
set(refused_programs)
# Busy-waiting on watched memory (Example 12.x, file 004 Problem 3): recorded
# since branch issue19-memwait as memory waits (docs/traces.md, Memory
# waits), each blocked poll a `memory_wait` naming the write that ended it
# (another rank's `store`, or its RMA operation), so these round-trip under
# every policy. "deadlock@POLICIES": under those policies the run itself
# deadlocks (weak progress never moves the data the writer waits for), and
# the replay must deadlock alike, its poller at a `memory_wait` that no write
# ends. Were refused before: all of these, and signal_handlers (its 'kept'
# twin polls a watched global), which completes under all four.
set(deadlocking_programs
  rma_flag_late deadlock@weak
  rma_heap_flag deadlock@weak
  rma_problem3 deadlock@weak
  bsend_shared_flag deadlock@weak
  fork_window deadlock@weak   # rank 1 polls its part of a shared window, set by rank 0's MPI_Put
)
# Round-trip since branch issue19-memwait (were excluded): nonzero_return,
# whose exit status is main's return value (or exit's status), now an `exit`
# event; memory_poll, whose ranks communicate through shared globals
# (--privatize=off): rank 1's store that wakes rank 0 is a `store` event.
# Round-trip since branch issue19-roundtrip (were excluded): coll_algorithms
# and coll_all (reductions over derived datatypes and with user operations
# are recorded as the items the model splits and combines, "elements" and
# "commutative", no longer as bytes with MPI_BOR; and an MPI_Alltoall with
# MPI_IN_PLACE was replayed with the recorded send count, 0, so its blocks
# left empty: 1.28 ns earlier), check_coll_args (the same MPI_IN_PLACE
# alltoall: 0.64 ns), datatype_decode (round-trips at main 4ee18a3 already:
# its MPI_Sendrecv of an uncommitted datatype fails, which the replay
# performed before `failed` events).
# Programs that make erroneous calls on purpose under MPI_ERRORS_RETURN
# (null_buffer, topo_cart, topo_graph, topo_distgraph) round-trip: each
# failed call has a `failed` event after its own, and the replay gives it
# its cost, not its effect (docs/traces.md).
# Runs of progsim_program_test (by test name) that deadlock, round-tripped
# as deadlocks ("deadlock@POLICIES": they deadlock under those and complete
# under the others; each replay must deadlock alike, each rank named at its
# trace line). Since branch issue19-grequest: a wait on a generalized
# request never completed, under every policy.
set(deadlocking_tests
  p2p.grequest_never_completed deadlock@weak,thread,offload,ideal
)
# Programs that no progsim_program_test expects to complete, round-tripped
# with these run options and arguments, "PROGRAM|RUN OPTIONS|ARGUMENTS[|HOW]"
# (HOW as in refused_programs).
set(other_runs
  "allreduces_then_sleep|-n 4|20"  # the timeline and HTML tests' program
  "otf2_icoll|-n 4|"               # the OTF2 export's nonblocking collectives
)
# Programs not round-tripped here, with why ("PROGRAM|WHY", no semicolon in
# WHY): round-tripped by other tests, or whose replay cannot be identical
# (they get no test here). traces.roundtrip.every_program fails for a
# program in tests/programs/ (or built by progsim_test_program) that is
# neither round-tripped here, nor expected by all its tests to end neither
# completed nor erroneous (a deadlock, a crash, ...), nor listed here; and
# for an entry here naming no program, or a program that never completes.
# Round-trips since branch issue19-rmart (was excluded): rma_semantics,
# erroneous on purpose (an MPI_Put outside any epoch, whose failed call the
# replay makes too, finding the same error), with an MPI_Rput and MPI_Rget
# across two adjacent attached regions of a dynamic window (win_attach's
# "after") and a strided put and get beside another rank's accumulate
# ("pieces"), docs/traces.md.
set(not_roundtripped
  "trace_mix|traces.roundtrip.trace_mix.* and trace_mix_per_rank_files (roundtrip.sh), every policy"
  "trace_calls|traces.roundtrip.trace_calls.* (roundtrip.sh), every policy"
  "trace_forms|traces.roundtrip.trace_forms.* (roundtrip.sh), every policy"
  "trace_inter|traces.roundtrip.trace_inter.* (roundtrip.sh), every policy"
)

set(listed)
foreach(entry IN LISTS not_roundtripped)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 program)
  list(APPEND listed ${program})
endforeach()
get_property(completing GLOBAL PROPERTY PROGSIM_COMPLETING_PROGRAMS)
list(REMOVE_ITEM completing ${listed})
# NAME: the test's; PROGRAM; REFUSED ("-", CALL[@POLICIES], deadlock@POLICIES,
# erroneous@POLICIES: roundtrip_program.sh); RUN; ARGS.
function(roundtrip_program_test name program refused run args)
  add_test(NAME traces.roundtrip.program.${name}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/traces/roundtrip_program.sh ${PROGSIM_CLI}
            ${CMAKE_BINARY_DIR}/tests/traces/roundtrip_program/${name} ${refused}
            -- ${run} -- ${PROGSIM_TEST_PROGRAM_DIR}/${program} ${args})
  set_tests_properties(traces.roundtrip.program.${name} PROPERTIES LABELS program)
endfunction()
foreach(program IN LISTS completing)
  get_property(run GLOBAL PROPERTY PROGSIM_COMPLETING_RUN_${program})
  get_property(args GLOBAL PROPERTY PROGSIM_COMPLETING_ARGS_${program})
  set(refused -)
  foreach(pairs IN ITEMS refused_programs deadlocking_programs)
    list(FIND ${pairs} ${program} at)
    if(NOT at EQUAL -1)
      math(EXPR at "${at} + 1")
      list(GET ${pairs} ${at} refused)
    endif()
  endforeach()
  roundtrip_program_test(${program} ${program} ${refused} "${run}" "${args}")
endforeach()
set(roundtripped ${completing})
# Programs that finish erroneous (every rank finished, an error of the
# program found: a collective mismatch, a collective pending at
# MPI_Finalize) and never complete: the replay must finish with the same
# errors (rule, ranks, time), under every policy.
get_property(erroneous GLOBAL PROPERTY PROGSIM_ERRONEOUS_PROGRAMS)
list(REMOVE_ITEM erroneous ${completing} ${listed})
foreach(program IN LISTS erroneous)
  get_property(run GLOBAL PROPERTY PROGSIM_ERRONEOUS_RUN_${program})
  get_property(args GLOBAL PROPERTY PROGSIM_ERRONEOUS_ARGS_${program})
  roundtrip_program_test(${program} ${program} erroneous@weak,thread,offload,ideal "${run}" "${args}")
  list(APPEND roundtripped ${program})
endforeach()
set(deadlocking_everywhere)
while(deadlocking_tests)
  list(POP_FRONT deadlocking_tests test expected)
  list(APPEND deadlocking_everywhere ${test})
  get_property(program GLOBAL PROPERTY PROGSIM_TEST_PROGRAM_${test})
  get_property(run GLOBAL PROPERTY PROGSIM_TEST_RUN_${test})
  get_property(args GLOBAL PROPERTY PROGSIM_TEST_ARGS_${test})
  if(NOT program)
    message(FATAL_ERROR "roundtrip_programs.cmake: no progsim_program_test named ${test}")
  endif()
  roundtrip_program_test(${test} ${program} ${expected} "${run}" "${args}")
endwhile()
foreach(entry IN LISTS other_runs)
  string(REPLACE "|" ";" fields "${entry}")
  list(GET fields 0 program)
  list(GET fields 1 run)
  list(GET fields 2 args)
  set(how -)
  list(LENGTH fields n)
  if(n GREATER 3)
    list(GET fields 3 how)
  endif()
  separate_arguments(run UNIX_COMMAND "${run}")
  separate_arguments(args UNIX_COMMAND "${args}")
  roundtrip_program_test(${program} ${program} ${how} "${run}" "${args}")
  list(APPEND roundtripped ${program})
endforeach()

# Every other test of progsim_program_test that expects a deadlock (not
# through another command: compare, check): its run recorded and replayed
# under its own options and policy, and the replay deadlocks alike
# (traces.roundtrip.deadlock.TEST). Not these, with why ("TEST|WHY"). Since
# branch issue19-grequest none: the livelocks held in an MPI_Iprobe loop
# (livelock.iprobe.*, livelock.both.*, livelock.sleep.weak,
# check.race.infeasible_iprobe.*) round-trip too, their held call written
# at the run's end marked "unreturned" (its event is written when it
# returns, which it never did: the replay ran out of events).
set(deadlocks_not_roundtripped)
get_property(deadlocking GLOBAL PROPERTY PROGSIM_DEADLOCKING_TESTS)
foreach(entry IN LISTS deadlocks_not_roundtripped)
  string(REGEX REPLACE "[|].*" "" test "${entry}")
  if(NOT test IN_LIST deadlocking)
    message(FATAL_ERROR "roundtrip_programs.cmake: ${test} is not a deadlocking test of progsim_program_test")
  endif()
  list(REMOVE_ITEM deadlocking ${test})
endforeach()
list(REMOVE_ITEM deadlocking ${deadlocking_everywhere})
foreach(test IN LISTS deadlocking)
  get_property(program GLOBAL PROPERTY PROGSIM_TEST_PROGRAM_${test})
  get_property(run GLOBAL PROPERTY PROGSIM_TEST_RUN_${test})
  get_property(args GLOBAL PROPERTY PROGSIM_TEST_ARGS_${test})
  add_test(NAME traces.roundtrip.deadlock.${test}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/traces/roundtrip_program.sh ${PROGSIM_CLI}
            ${CMAKE_BINARY_DIR}/tests/traces/roundtrip_deadlock/${test} deadlock@as-run
            -- ${run} -- ${PROGSIM_TEST_PROGRAM_DIR}/${program} ${args})
  set_tests_properties(traces.roundtrip.deadlock.${test} PROPERTIES LABELS program)
endforeach()

# Every program is accounted for (issue 19: "every program under
# tests/programs/ that completes"): the programs built for the tests and
# the sources in tests/programs/, each round-tripped above, or expected by
# all its tests to end otherwise, or listed in not_roundtripped.
get_property(programs GLOBAL PROPERTY PROGSIM_TEST_PROGRAMS)
file(GLOB sources RELATIVE ${CMAKE_CURRENT_SOURCE_DIR}/programs
     ${CMAKE_CURRENT_SOURCE_DIR}/programs/*.c ${CMAKE_CURRENT_SOURCE_DIR}/programs/*.cpp)
foreach(source IN LISTS sources)
  string(REGEX REPLACE "\\.[a-z]+$" "" source ${source})
  list(APPEND programs ${source})
endforeach()
list(REMOVE_DUPLICATES programs)
list(SORT programs)
set(accounting)
set(problems 0)
foreach(program IN LISTS programs)
  get_property(outcomes GLOBAL PROPERTY PROGSIM_PROGRAM_OUTCOMES_${program})
  list(REMOVE_DUPLICATES outcomes)
  list(FIND roundtripped ${program} is_roundtripped)
  list(FIND listed ${program} is_listed)
  if(NOT is_roundtripped EQUAL -1)
    set(status "round-tripped")
  elseif(outcomes AND NOT "completed" IN_LIST outcomes AND NOT "erroneous" IN_LIST outcomes AND
         NOT "unspecified" IN_LIST outcomes)
    string(REPLACE ";" ", " outcomes "${outcomes}")
    set(status "never completes: its tests expect ${outcomes}")
  elseif(NOT is_listed EQUAL -1)
    list(GET not_roundtripped ${is_listed} entry)
    string(REGEX REPLACE "^[^|]*[|]" "" why "${entry}")
    set(status "not here: ${why}")
  else()
    set(status "FAIL: neither round-tripped nor listed with a reason in tests/traces/roundtrip_programs.cmake")
    math(EXPR problems "${problems} + 1")
  endif()
  if(NOT is_listed EQUAL -1 AND NOT status MATCHES "^not here")
    set(status "FAIL: listed in not_roundtripped, but ${status}: remove the entry")
    math(EXPR problems "${problems} + 1")
  endif()
  list(APPEND accounting "${program}: ${status}")
endforeach()
foreach(program IN LISTS listed)
  if(NOT program IN_LIST programs)
    list(APPEND accounting "${program}: FAIL: listed in not_roundtripped, but no such program")
    math(EXPR problems "${problems} + 1")
  endif()
endforeach()
list(LENGTH programs count)
string(REPLACE ";" "\n" accounting "${accounting}")
file(WRITE ${CMAKE_BINARY_DIR}/tests/traces/every_program.txt "${accounting}\n${count} programs, ${problems} problems\n")
add_test(NAME traces.roundtrip.every_program
  COMMAND sh -c "cat \"$1\"; test \"$2\" = 0" sh ${CMAKE_BINARY_DIR}/tests/traces/every_program.txt ${problems})
