# progsim check (issue 16): the verdicts the progress texts give for their
# seed examples, found by running every policy and implementation freedom;
# the message races found by exploring the other matches of wildcard
# receives, wildcard probes and the calls returning some of several
# completed requests (docs/design/message-races.md), each next to a correct
# twin that differs minimally; type mismatches and undefined outcomes named
# as classes.
progsim_test_program(race ${CMAKE_CURRENT_SOURCE_DIR}/programs/race.c)
progsim_test_program(race_more ${CMAKE_CURRENT_SOURCE_DIR}/programs/race_more.c)
progsim_test_program(race_seen ${CMAKE_CURRENT_SOURCE_DIR}/programs/race_seen.c)
foreach(case head_to_head example_12x figure33 hello usage
             race_source race_source_fixed race_tag race_tag_fixed race_waitany race_waitany_fixed
             more_testany more_testany_fixed more_waitsome more_waitsome_fixed more_testsome more_testsome_fixed
             more_probe more_probe_fixed more_iprobe more_iprobe_fixed more_mprobe more_mprobe_fixed
             more_improbe more_improbe_fixed
             race_max_runs type_mismatch undefined undefined_twin)
  add_test(NAME check.command.${case}
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/check/check_command.py
            ${PROGSIM_CLI} ${PROGSIM_TEST_PROGRAM_DIR} ${case})
  set_tests_properties(check.command.${case} PROPERTIES LABELS program)
endforeach()

# The forced choice itself (--cfg match-schedule) and what --cfg
# match-record writes, under every policy, twice (determinism).
foreach(policy weak thread offload ideal)
  # The default run: rank 0's first MPI_ANY_SOURCE receive takes rank 1's
  # message; rank 2's was a possible alternative. The second receive has
  # only what is left.
  progsim_program_test(check.race.record.${policy} PROGRAM race
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: answered rank 1 first"
           --check "/message_races/decisions/0/rank=0" --check "/message_races/decisions/0/decision=1"
           --check "/message_races/decisions/0/call=MPI_Recv" --check "/message_races/decisions/0/site=main (race.c:23)"
           --check "/message_races/decisions/0/chosen/source=1" --check "/message_races/decisions/0/forced=false"
           --check "/message_races/decisions/0/alternatives=[{\"source\":2,\"world\":2,\"tag\":0}]"
           --check "/message_races/decisions/1/site=main (race.c:25)" --check "/message_races/decisions/1/chosen/source=2"
           --check "/message_races/decisions/1/alternatives=[]" --check "/message_races/infeasible=false"
    RUN -n 3 --progress ${policy} --cfg match-record=yes PROGRAM_ARGS source)
  # Forced: the first receive matches rank 2; rank 0 answers rank 2 and
  # rank 1 waits for ever (a deadlock of the program, not an infeasible run).
  progsim_program_test(check.race.forced.${policy} PROGRAM race
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice --stdout-regex "rank 0: answered rank 2 first"
           --check "/message_races/decisions/0/chosen/source=2" --check "/message_races/decisions/0/forced=true"
           --check "/message_races/decisions/1/chosen/source=1" --check "/message_races/infeasible=false"
    RUN -n 3 --progress ${policy} --cfg match-record=yes --cfg match-schedule=0:1=2 PROGRAM_ARGS source)
  progsim_program_test(check.race.forced_tag.${policy} PROGRAM race
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice --stdout-regex "rank 0: answered rank 2 first"
           --check "/message_races/decisions/0/chosen/tag=2" --check "/message_races/infeasible=false"
    RUN -n 3 --progress ${policy} --cfg match-record=yes --cfg match-schedule=0:1=2 PROGRAM_ARGS tag)
  progsim_program_test(check.race.forced_waitany.${policy} PROGRAM race
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice --stdout-regex "rank 0: answered rank 2 first"
           --check "/message_races/decisions/0/kind=waitany" --check "/message_races/decisions/0/chosen/index=1"
           --check "/message_races/decisions/0/site=main (race.c:44)" --check "/message_races/infeasible=false"
    RUN -n 3 --progress ${policy} --cfg match-record=yes --cfg "match-schedule=0:1=#1" PROGRAM_ARGS waitany)
  # A forced match that never comes (rank 0 sends nothing to itself): the
  # run is infeasible, its deadlock not the program's.
  progsim_program_test(check.race.infeasible.${policy} PROGRAM race
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "note: match-schedule: rank 0's decision 1 never got the match it was forced to: this execution is infeasible, not the program's"
           --check "/message_races/infeasible=true"
           --check "/message_races/infeasible_reasons=[\"rank 0's decision 1 never got the match it was forced to\"]"
    RUN -n 3 --progress ${policy} --cfg match-schedule=0:1=0 PROGRAM_ARGS source)
endforeach()
progsim_program_test(check.race.schedule_syntax PROGRAM race
  EXPECT --expect-exit 2 --stderr-regex "match-schedule: '0:x=1' is not RANK:K=SOURCE or RANK:K=#INDEX"
  RUN -n 3 --cfg match-schedule=0:x=1 PROGRAM_ARGS source)

# The same for MPI_Testany, MPI_Waitsome, MPI_Testsome and the wildcard
# probes (tests/programs/race_more.c). Recorded: the default choice (rank
# 1's request / message; under offload MPI_Waitsome and MPI_Testsome return
# as soon as rank 1's request alone completed) with the other one as its
# alternative (the *some* forms: each request alone). Forced to the other
# request / sender, rank 0 answers rank 2 (or nobody) and rank 1 waits for ever.
foreach(policy weak thread offload ideal)
  foreach(mode testany waitsome testsome probe iprobe mprobe improbe)
    if(mode STREQUAL "testany")
      set(call MPI_Testany)
      set(line 41)
      set(chosen "{\"index\":0}")
      set(alternatives "[{\"index\":1}]")
    elseif(mode MATCHES "some")
      set(call MPI_Waitsome)
      set(line 47)
      if(mode STREQUAL "testsome")
        set(call MPI_Testsome)
        set(line 49)
      endif()
      set(chosen "{\"indices\":[0,1]}")
      set(alternatives "[{\"indices\":[0]},{\"indices\":[1]}]")
      if(policy STREQUAL "offload")
        set(chosen "{\"indices\":[0]}")
        set(alternatives "[{\"indices\":[1]}]")
      endif()
    else()
      set(call MPI_Probe)
      set(line 63)
      if(mode STREQUAL "iprobe")
        set(call MPI_Iprobe)
        set(line 66)
      elseif(mode STREQUAL "mprobe")
        set(call MPI_Mprobe)
        set(line 68)
      elseif(mode STREQUAL "improbe")
        set(call MPI_Improbe)
        set(line 71)
      endif()
      set(chosen "{\"source\":1,\"world\":1,\"tag\":0}")
      set(alternatives "[{\"source\":2,\"world\":2,\"tag\":0}]")
    endif()
    progsim_program_test(check.race.record_${mode}.${policy} PROGRAM race_more
      EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: answered rank 1"
             --check "/message_races/decisions/0/call=${call}" --check "/message_races/decisions/0/site=main (race_more.c:${line})"
             --check "/message_races/decisions/0/chosen=${chosen}" --check "/message_races/decisions/0/alternatives=${alternatives}"
             --check "/message_races/decisions/0/forced=false" --check "/message_races/infeasible=false"
      RUN -n 3 --progress ${policy} --cfg match-record=yes PROGRAM_ARGS ${mode})
  endforeach()
  foreach(mode testany waitsome testsome)
    set(index "/message_races/decisions/0/chosen/index=1")
    if(mode MATCHES "some")
      set(index "/message_races/decisions/0/chosen/indices=[1]")
    endif()
    progsim_program_test(check.race.forced_${mode}.${policy} PROGRAM race_more
      EXPECT --expect-outcome deadlock --expect-exit 3 --twice
             --check "/message_races/decisions/0/kind=${mode}" --check "${index}"
             --check "/message_races/decisions/0/forced=true" --check "/message_races/infeasible=false"
      RUN -n 3 --progress ${policy} --cfg match-record=yes --cfg "match-schedule=0:1=#1" PROGRAM_ARGS ${mode})
  endforeach()
  foreach(mode probe iprobe mprobe improbe)
    progsim_program_test(check.race.forced_${mode}.${policy} PROGRAM race_more
      EXPECT --expect-outcome deadlock --expect-exit 3 --twice --stdout-regex "rank 0: answered rank 2"
             --check "/message_races/decisions/0/kind=probe" --check "/message_races/decisions/0/chosen/source=2"
             --check "/message_races/decisions/0/alternatives=[{\"source\":1,\"world\":1,\"tag\":0}]"
             --check "/message_races/decisions/0/forced=true"
             --check "/message_races/infeasible=false"
      RUN -n 3 --progress ${policy} --cfg match-record=yes --cfg match-schedule=0:1=2 PROGRAM_ARGS ${mode})
  endforeach()
  # MPI_Mprobe matches the message it takes (MPI-4.1 §3.8.2): rank 1's,
  # taken by a named MPI_Mprobe, is no alternative of the wildcard receive
  # after it, which can only take rank 2's.
  progsim_program_test(check.race.record_mprobe_named.${policy} PROGRAM race_more
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --check "/message_races/decisions/0/call=MPI_Recv" --check "/message_races/decisions/0/site=main (race_more.c:58)"
           --check "/message_races/decisions/0/chosen/source=2" --check "/message_races/decisions/0/alternatives=[]"
    RUN -n 3 --progress ${policy} --cfg match-record=yes PROGRAM_ARGS mprobe_named)
  # A test procedure forced to a request rank 1 sends only later, while
  # MPI_Request_get_status told the program the other one completed: it
  # returns that one (it must), and the run is infeasible.
  foreach(mode testany testsome)
    progsim_program_test(check.race.infeasible_seen_${mode}.${policy} PROGRAM race_seen
      EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: the test returned request 0"
             --check "/message_races/infeasible_reasons=[\"rank 0's decision 1 (${mode}) must return something: the program knows request 0 completed\"]"
      RUN -n 2 --progress ${policy} --cfg "match-schedule=0:1=#1" PROGRAM_ARGS ${mode})
  endforeach()
  # An MPI_Iprobe forced to a sender that never sends: it finds nothing for
  # ever; infeasible, not the program's deadlock. MPI_Testsome forced to a
  # request that does not exist: it chooses freely, the run is infeasible.
  progsim_program_test(check.race.infeasible_iprobe.${policy} PROGRAM race_more
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "note: match-schedule: rank 0's decision 1 never got the match it was forced to"
           --check "/message_races/infeasible=true"
    RUN -n 3 --progress ${policy} --cfg match-schedule=0:1=0 PROGRAM_ARGS iprobe)
  progsim_program_test(check.race.infeasible_testsome.${policy} PROGRAM race_more
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --check "/message_races/infeasible_reasons=[\"rank 0's decision 1 (testsome) has no active request at index 5\"]"
    RUN -n 3 --progress ${policy} --cfg "match-schedule=0:1=#0+5" PROGRAM_ARGS testsome_fixed)
endforeach()
