# Record -> replay round trip of every program a test expects to complete
# (issue 19): the first such registration of each program
# (progsim_program_test, tests/CMakeLists.txt) gives its run options and
# arguments; traces.roundtrip.program.NAME runs it under all four policies
# (tests/traces/roundtrip_program.sh). Programs the recorder refuses are
# listed below with the call it refuses and why; their test checks that the
# replay stops at that call, so it fails (and the entry must go) once the
# recorder learns it; "CALL@POLICIES": refused under those policies only, a
# round trip under the others. Programs whose replay cannot be identical are
# listed in excluded_programs with why, and get no test.
# Recorded since branch issue19-roundtrip (were refused): MPI_Cancel
# (cancel_send, lc_request, p2p_semantics; with whether it succeeded),
# MPI_Request_get_status (race_seen), the Sessions Model (sessions), and the
# calls of the attribute delete callbacks MPI_Finalize runs
# (finalize_callbacks: an MPI_Bsend, made by the replay's own delete
# callback). Refused: grequest, for its query function's MPI calls
# (MPI_Status_set_elements, MPI_Status_set_cancelled), which run inside
# MPI_Wait and cost call time there, where a replay cannot make them.
set(refused_programs
  grequest MPI_Grequest_start
)
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
set(excluded_programs)

get_property(completing GLOBAL PROPERTY PROGSIM_COMPLETING_PROGRAMS)
if(excluded_programs)
  list(REMOVE_ITEM completing ${excluded_programs})
endif()
foreach(program IN LISTS completing)
  get_property(run GLOBAL PROPERTY PROGSIM_COMPLETING_RUN_${program})
  get_property(args GLOBAL PROPERTY PROGSIM_COMPLETING_ARGS_${program})
  set(refused -)
  foreach(listed IN ITEMS refused_programs deadlocking_programs)
    list(FIND ${listed} ${program} at)
    if(NOT at EQUAL -1)
      math(EXPR at "${at} + 1")
      list(GET ${listed} ${at} refused)
    endif()
  endforeach()
  add_test(NAME traces.roundtrip.program.${program}
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/traces/roundtrip_program.sh ${PROGSIM_CLI}
            ${CMAKE_BINARY_DIR}/tests/traces/roundtrip_program/${program} ${refused}
            -- ${run} -- ${PROGSIM_TEST_PROGRAM_DIR}/${program} ${args})
  set_tests_properties(traces.roundtrip.program.${program} PROPERTIES LABELS program)
endforeach()
