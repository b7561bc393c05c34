# The overlap meter (mpi_model/progress/OverlapMeter.hpp): exact however
# many MPI calls an operation spans, and the requests it holds agree with
# the program's.

progsim_test_program(overlap_long_hold overlap_long_hold.c)
progsim_test_program(overlap_held_requests overlap_held_requests.c)

# Rank 1's MPI_Irecv spans 5,000 rounds of 1 us of computation and an
# MPI_Iprobe (more than the 4,096 intervals the meter used to keep, when it
# measured 5,307 us under weak and 5,368 us under thread): it hides exactly
# the 5,000 us of computation, under weak (the message waits in the wire
# for the wait) as under thread (it arrives while rank 1 computes). 1e-9 s:
# the sum of 5,000 computations, rounding only. Nothing is approximate.
foreach(policy weak thread)
  progsim_program_test(overlap.long_hold.${policy} PROGRAM overlap_long_hold PROGRAM_ARGS 5000
    EXPECT --expect-outcome completed
           --check "/ranks/1/overlap/operations=1"
           --check "/ranks/1/overlap/per_operation/0/hidden_time~0.005+-1e-9"
           --check "/ranks/1/overlap/hidden_time~0.005+-1e-9"
           --check-absent "/ranks/1/overlap/approximate_operations"
    RUN -n 2 --progress ${policy})
endforeach()
# At 1,000 rounds (within what the old meter kept) the same figure, 1,000 us.
progsim_program_test(overlap.long_hold.short PROGRAM overlap_long_hold PROGRAM_ARGS 1000
  EXPECT --expect-outcome completed --twice
         --check "/ranks/1/overlap/per_operation/0/hidden_time~0.001+-1e-9"
  RUN -n 2 --progress weak)

# Every way of getting and giving back a request: at the end of the run the
# overlap meter of each rank holds as many requests as the program holds
# active ones (a mismatch is an internal error on stderr), also when a rank
# finalizes holding a receive never matched and a started persistent one.
# Under weak, each rank measures 21 operations (those that outlived their
# starting call): main's 25 counted the last start of the persistent
# receive, collective and partitioned requests twice (again at their
# MPI_Request_free) and the MPI_Imrecv from t=0 (its start never stamped).
foreach(policy weak offload)
  set(counts)
  if(policy STREQUAL "weak")
    set(counts --check "/ranks/0/overlap/operations=21" --check "/ranks/1/overlap/operations=21")
  endif()
  progsim_program_test(overlap.held_requests.${policy} PROGRAM overlap_held_requests
    EXPECT --expect-outcome completed --stderr-not-regex "overlap meter" ${counts}
    RUN -n 2 --progress ${policy})
endforeach()
progsim_program_test(overlap.held_requests.left_at_finalize PROGRAM overlap_held_requests PROGRAM_ARGS leave
  EXPECT --expect-outcome erroneous --stderr-not-regex "overlap meter"
         --stderr-regex "MPI_Irecv.*never completed before it finalized"
  RUN -n 2 --progress weak)

# The bound on kept intervals, lowered to 1,024 by PROGSIM_OVERLAP_MAX_INTERVALS
# (2^20 otherwise, a million calls: 10 s of run): the receive held across
# 5,000 calls is measured on what the bound left, and the report says so
# (approximate_operations, on rank 1 only); compare marks the figure "~".
add_test(NAME overlap.bound.weak
  COMMAND ${CMAKE_COMMAND} -E env PROGSIM_OVERLAP_MAX_INTERVALS=1024
          $<TARGET_FILE:program_test> --progsim ${PROGSIM_CLI} --expect-outcome completed
          --check "/ranks/1/overlap/approximate_operations=1"
          --check-absent "/ranks/0/overlap/approximate_operations"
          -- -n 2 --progress weak ${PROGSIM_TEST_PROGRAM_DIR}/overlap_long_hold 5000)
add_test(NAME overlap.bound.compare
  COMMAND ${CMAKE_COMMAND} -E env PROGSIM_OVERLAP_MAX_INTERVALS=1024
          $<TARGET_FILE:program_test> --progsim ${PROGSIM_CLI} --command compare
          --stdout-regex "weak .* ~0\\.[0-9]+\n"
          -- -n 2 --policies weak ${PROGSIM_TEST_PROGRAM_DIR}/overlap_long_hold 5000)
set_tests_properties(overlap.bound.weak overlap.bound.compare PROPERTIES LABELS program)
