# Program tests of communicators, groups, attributes, info objects and the
# collectives (MPI-4.1 chapters 6, 7, 9.3, 10). Each
# program counts its failed checks and prints "rank R: NAME ok (N checks)"
# on every rank when none failed (it aborts otherwise). Every test runs under
# the weak and the ideal progress policies.

foreach(p coll_all coll_mismatch coll_mismatch_nonblocking coll_algorithms coll_forced coll_order coll_large_count coll_pending_at_finalize comm_split
          comm_attr comm_group comm_inter keyval_lifetime)
  progsim_test_program(${p} ${p}.c)
endforeach()

foreach(policy weak ideal)
  # Every collective on 5 ranks (irregular trees) with known values:
  # MPI_IN_PLACE variants, MINLOC/MAXLOC, a predefined op on a derived
  # type, a non-commutative user op (2x2 matrix product) reduced in rank
  # order by reduce (roots 0 and 3), allreduce, scan, exscan,
  # reduce_scatter_block and reduce_local, and collectives on a split.
  progsim_program_test(coll.all.${policy} PROGRAM coll_all
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: coll_all ok" --stdout-regex "rank 1: coll_all ok"
           --stdout-regex "rank 2: coll_all ok" --stdout-regex "rank 3: coll_all ok"
           --stdout-regex "rank 4: coll_all ok"
    RUN -n 5 --progress ${policy})

  # Rank 0 in MPI_Bcast, rank 1 in MPI_Barrier on the same communicator:
  # the mismatch is an error naming both calls and their source lines, listed
  # in the report, and the run deadlocks, "incorrect under every MPI" because
  # of the error. With an eager broadcast rank 0 finishes; with a rendezvous
  # one both block.
  progsim_program_test(coll.mismatch.${policy} PROGRAM coll_mismatch
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "error: collective mismatch on MPI_COMM_WORLD: its collective call #2 is MPI_Barrier at rank 1 but MPI_Bcast at rank 0 \\(erroneous: MPI-4\\.1 §6\\.14 requires"
           --stderr-regex "\n  rank 1: MPI_Barrier at main \\(coll_mismatch\\.c:21\\)\n  rank 0: MPI_Bcast at main \\(coll_mismatch\\.c:19\\)\n"
           --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Barrier\\(comm=MPI_COMM_WORLD\\), waiting for a message from rank 0"
           --stderr-regex "rank 0: finished at"
           --stderr-regex "class: incorrect under every MPI - the program is erroneous, and the blocked call of rank 1 follows from its error: collective mismatch"
           --check "/deadlock/class=incorrect under every MPI"
           --check "/errors/0/rule=collective mismatch" --check "/errors/0/section=MPI-4.1 §6.14"
           --check "/errors/0/ranks=[1,0]" --check "/errors/0/sites/0/call=MPI_Barrier"
           --check "/errors/0/sites/0/source=main (coll_mismatch.c:21)"
           --check "/errors/0/sites/1/source=main (coll_mismatch.c:19)"
    RUN -n 2 --progress ${policy})
  # The same after a completed nonblocking collective, through the interposed
  # trace library: each rank's call site is its own (rank 0 was once given
  # rank 1's MPI_Init line).
  progsim_program_test(coll.mismatch_nonblocking.${policy} PROGRAM coll_mismatch_nonblocking
    EXPECT --expect-outcome aborted --expect-exit 1 --twice
           --stderr-regex "its collective call #2 is MPI_Ibarrier at rank 1 but MPI_Iallgather at rank 0"
           --stderr-regex "\n  rank 1: MPI_Ibarrier at main \\(coll_mismatch_nonblocking\\.c:19\\)\n  rank 0: MPI_Iallgather at main \\(coll_mismatch_nonblocking\\.c:17\\)\n"
    RUN -n 2 --progress ${policy})
  progsim_program_test(coll.mismatch_large.${policy} PROGRAM coll_mismatch
    EXPECT --expect-outcome deadlock --expect-exit 3
           --stderr-regex "error: collective mismatch on MPI_COMM_WORLD"
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Bcast\\(comm=MPI_COMM_WORLD\\), sending to rank 1"
           --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Barrier\\(comm=MPI_COMM_WORLD\\), waiting for a message from rank 0"
           --check "/deadlock/class=incorrect under every MPI" --check "/errors/0/rule=collective mismatch"
    RUN -n 2 --progress ${policy} PROGRAM_ARGS large)

  # Rank 1 calls MPI_Reduce, rank 0 never does; the reduction's message is
  # eager, both finalize: the collective is still pending at MPI_Finalize, an
  # error (MPI-4.1 §6.14), and the run is erroneous (exit status 5).
  progsim_program_test(coll.pending_at_finalize.${policy} PROGRAM coll_pending_at_finalize
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stdout-regex "rank 0: done" --stdout-regex "rank 1: done"
           --stderr-regex "error: MPI_Reduce \\(collective call #2 on MPI_COMM_WORLD\\) was called by rank 1 but never by rank 0, which made 1 collective call\\(s\\) on it before MPI_Finalize \\(erroneous: MPI-4\\.1 §6\\.14"
           --stderr-regex "erroneous program: every rank finished, but the program broke 1 rule\\(s\\) of the MPI standard"
           --check "/errors/0/rule=collective not entered by every member" --check "/errors/0/ranks=[1]"
           --check "/errors/0/sites/0/source=main (coll_pending_at_finalize.c:16)"
           --check "/ranks/0/state=finished" --check "/ranks/1/state=finished"
    RUN -n 2 --progress ${policy})

  # Split by color with the key reversing the order, MPI_UNDEFINED, context
  # separation, compare, create, create_group, split_type shared (2 ranks
  # per host), idup, names, 5000 dup/free cycles and 100 live dups.
  progsim_program_test(comm.split.${policy} PROGRAM comm_split
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: comm_split ok" --stdout-regex "rank 5: comm_split ok"
           --stdout-regex "rank 3: comm_split ok"
    RUN -n 6 --ranks-per-node 2 --progress ${policy})

  # Attribute copy callbacks on dup, delete callbacks, deprecated names,
  # predefined attributes, a user error handler inherited by a split and
  # called with the communicator and the error, info objects and hints.
  progsim_program_test(comm.attr.${policy} PROGRAM comm_attr
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: comm_attr ok" --stdout-regex "rank 3: comm_attr ok"
    RUN -n 4 --progress ${policy})

  # A freed keyval of each kind (communicator, window, datatype): its
  # attributes can still be deleted with it, it cannot set or get, a second
  # free while attributes use it changes nothing, one after the last is
  # MPI_ERR_KEYVAL (MPI-4.1 §7.7.2; MPICH's attr/fkeyval*,
  # keyval_double_free* failed before).
  progsim_program_test(attr.keyval_lifetime.${policy} PROGRAM keyval_lifetime
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: keyval_lifetime ok" --stdout-regex "rank 1: keyval_lifetime ok"
    RUN -n 2 --progress ${policy})

  # Intercommunicators: create (groups of 2 and 4), point-to-point across,
  # remote group, dup, the intercommunicator collectives, merge.
  progsim_program_test(comm.inter.${policy} PROGRAM comm_inter
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: comm_inter ok" --stdout-regex "rank 5: comm_inter ok"
    RUN -n 6 --progress ${policy})

  # Group constructors, translate_ranks and compare.
  progsim_program_test(comm.group.${policy} PROGRAM comm_group
    EXPECT --expect-outcome completed --expect-exit 0
           --stdout-regex "rank 0: comm_group ok" --stdout-regex "rank 4: comm_group ok"
    RUN -n 5 --progress ${policy})
endforeach()

# Every collective at 1 to 70,000 items, blocking, nonblocking (also several
# in flight at once) and persistent, on power-of-two and other process
# counts: with auto's choices, and with the algorithms that serve every call
# forced by --cfg.
set(coll_cfg_default "")
set(coll_cfg_small --cfg coll-barrier=tree --cfg coll-bcast=linear --cfg coll-reduce=linear
    --cfg coll-allreduce=reduce_bcast --cfg coll-gather=linear --cfg coll-scatter=linear
    --cfg coll-allgather=linear --cfg coll-alltoall=pairwise --cfg coll-reduce-scatter=reduce_scatterv
    --cfg coll-scan=linear)
foreach(set_name default small)
  foreach(n 4 7)
    foreach(form blocking nonblocking persistent)
      progsim_program_test(coll.algorithms.${set_name}.n${n}.${form} PROGRAM coll_algorithms
        EXPECT --expect-outcome completed --expect-exit 0
               --stdout-regex "rank 0: coll_algorithms ok" --stdout-regex "rank 3: coll_algorithms ok"
        RUN -n ${n} ${coll_cfg_${set_name}} PROGRAM_ARGS ${form})
    endforeach()
  endforeach()
endforeach()
# Each algorithm of the registry forced in turn (read from --cfg help: a new
# algorithm is tested without editing this file), and the documentation's
# table of them (tests/programs/coll_registry.sh says how).
foreach(what blocking nonblocking persistent n7 docs)
  add_test(NAME coll.registry.${what}
    COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/coll_registry.sh $<TARGET_FILE:program_test> ${PROGSIM_CLI}
            ${PROGSIM_TEST_PROGRAM_DIR}/coll_algorithms ${CMAKE_SOURCE_DIR}/docs/design/collectives.md ${what})
  set_tests_properties(coll.registry.${what} PROPERTIES LABELS program TIMEOUT 600)
endforeach()
# A forced algorithm that does not apply to a call of the program ends the
# run there (outcome aborted, exit status 2, as a bad --cfg value) naming
# the rank, the call and its line, the algorithm and why: progsim never
# measures another algorithm in its place. The library's own collectives
# (the context id agreement of MPI_Comm_split) use auto's choice instead.
set(coll_forced_end --expect-outcome aborted --expect-exit 2 --check "/exit_status=2"
    --stderr-regex "at t=[0-9.]+ s\n" --stdout-regex "^$")
progsim_program_test(coll.forced_not_applicable.noncommutative PROGRAM coll_forced
  EXPECT ${coll_forced_end} --twice
         --stderr-regex "^progsim: rank 0: MPI_Allreduce at main \\(coll_forced\\.c:34\\): --cfg coll-allreduce=ring does not apply to this call: it combines blocks out of rank order, and the operation is not commutative \\(progsim measures no other algorithm in its place: choose auto or another one, see progsim run --cfg help\\) at t="
  RUN -n 4 --cfg coll-allreduce=ring PROGRAM_ARGS noncommutative)
progsim_program_test(coll.forced_not_applicable.one_item PROGRAM coll_forced
  EXPECT ${coll_forced_end}
         --stderr-regex "rank 0: MPI_Allreduce at main \\(coll_forced\\.c:36\\): --cfg coll-allreduce=rabenseifner does not apply to this call: it splits the vector into 4 blocks \\(the largest power of two <= 6 processes\\), and the call has 1 item\\(s\\)"
  RUN -n 6 --cfg coll-allreduce=rabenseifner PROGRAM_ARGS one_item)
progsim_program_test(coll.forced_not_applicable.persistent PROGRAM coll_forced
  EXPECT ${coll_forced_end}
         --stderr-regex "rank 0: MPI_Start at main \\(coll_forced\\.c:40\\): --cfg coll-allreduce=ring does not apply to this call: it combines blocks out of rank order"
  RUN -n 3 --cfg coll-allreduce=ring PROGRAM_ARGS persistent)
progsim_program_test(coll.forced_not_applicable.library PROGRAM coll_forced
  EXPECT --expect-outcome completed --expect-exit 0 --stdout-regex "rank 3: coll_forced ok"
  RUN -n 4 --cfg coll-allreduce=rabenseifner PROGRAM_ARGS library)

foreach(policy weak thread offload ideal)
  progsim_program_test(coll.algorithms.nonblocking.${policy} PROGRAM coll_algorithms
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 8: coll_algorithms ok"
    RUN -n 9 --progress ${policy} PROGRAM_ARGS nonblocking)
endforeach()

# The large-count "_c" collectives (MPI-4.1 §19.2) in each form: every
# collective with data, MPI_Reduce_local_c, the neighborhood collectives on a
# ring, and displacements beyond INT_MAX elements.
foreach(n 4 7)
  foreach(form blocking nonblocking persistent)
    progsim_program_test(coll.large_count.n${n}.${form} PROGRAM coll_large_count
      EXPECT --expect-outcome completed --expect-exit 0
             --stdout-regex "rank 0: coll_large_count ok" --stdout-regex "rank 3: coll_large_count ok"
      RUN -n ${n} PROGRAM_ARGS ${form})
  endforeach()
endforeach()

# Bcast then Barrier on rank 0, Barrier then Bcast on rank 1: erroneous
# under every MPI (MPI-4.1 §6.14), whatever the collectives synchronize. The
# mismatch is an error naming both calls and their source lines, listed in
# the report's "errors", and the run goes on: with --cfg coll-sync=always (a
# synchronizing broadcast) it deadlocks, and the explanation names the
# collective and its partner and classes it "incorrect under every MPI"
# (the implementation freedom does not matter); with coll-sync=never it
# finishes and is "erroneous" (exit status 5); by default a small broadcast
# is eager (erroneous) and a large one waits for rank 1 (deadlock).
set(coll_mismatch_error "error: collective mismatch on MPI_COMM_WORLD: its collective call #1 is MPI_Bcast at rank 0 but MPI_Barrier at rank 1 \\(erroneous: MPI-4\\.1 §6\\.14 requires that all members of a communicator call the same collective operations in the same order\\)\n  rank 0: MPI_Bcast at main \\(coll_order\\.c:24\\)\n  rank 1: MPI_Barrier at main \\(coll_order\\.c:27\\)\n")
set(coll_mismatch_checks --check "/errors/0/rule=collective mismatch" --check "/errors/0/section=MPI-4.1 §6.14"
    --check "/errors/0/ranks=[0,1]" --check "/errors/0/sites/0/call=MPI_Bcast"
    --check "/errors/0/sites/1/source=main (coll_order.c:27)")
set(coll_mismatch_erroneous --expect-outcome erroneous --expect-exit 5 --stderr-regex "${coll_mismatch_error}"
    --stderr-regex "erroneous program: every rank finished, but the program broke 1 rule\\(s\\) of the MPI standard"
    ${coll_mismatch_checks})
progsim_program_test(coll.order.sync_always PROGRAM coll_order
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "${coll_mismatch_error}"
         --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Bcast\\(comm=MPI_COMM_WORLD\\), sending to rank 1"
         --stderr-regex "rank 1 to take part in MPI_Bcast \\(a collective partner\\)"
         --stderr-regex "class: incorrect under every MPI - the program is erroneous"
         --check "/deadlock/class=incorrect under every MPI" ${coll_mismatch_checks}
  RUN -n 2 --cfg coll-sync=always)
progsim_program_test(coll.order.sync_never PROGRAM coll_order
  EXPECT ${coll_mismatch_erroneous} --twice --stdout-regex "rank 1: done, buf\\[3\\] = 4"
  RUN -n 2 --cfg coll-sync=never)
progsim_program_test(coll.order.sync_never_large PROGRAM coll_order
  EXPECT ${coll_mismatch_erroneous} --stdout-regex "rank 1: done, buf\\[262143\\] = 262144"
  RUN -n 2 --cfg coll-sync=never PROGRAM_ARGS large)
progsim_program_test(coll.order.default_small PROGRAM coll_order
  EXPECT ${coll_mismatch_erroneous}
  RUN -n 2)
progsim_program_test(coll.order.default_large PROGRAM coll_order
  EXPECT --expect-outcome deadlock --expect-exit 3 --stderr-regex "class: incorrect under every MPI - the program is erroneous"
         --check "/deadlock/class=incorrect under every MPI" ${coll_mismatch_checks}
  RUN -n 2 PROGRAM_ARGS large)

# The Iallreduce overlap acceptance (issue 5): 8 MiB on 16 ranks, 4 per
# node, 2 s of computation between start and wait. The OSU-style overlap is
# near 0 under weak (the rounds wait for MPI_Wait), near 100% under ideal,
# and in between under thread and offload (their costs, below).
progsim_test_program(iallreduce_overlap ${PROJECT_SOURCE_DIR}/examples/iallreduce_overlap/iallreduce_overlap.c)
progsim_program_test(coll.overlap.weak PROGRAM iallreduce_overlap
  EXPECT --expect-outcome completed --twice --stdout-regex "overlap: [0-4]\\.[0-9]+%" --stdout-regex "results: correct"
  RUN -n 16 --ranks-per-node 4 --progress weak)
progsim_program_test(coll.overlap.ideal PROGRAM iallreduce_overlap
  EXPECT --expect-outcome completed --twice --stdout-regex "overlap: (99\\.9[0-9]+|100\\.0+)%"
         --stdout-regex "not overlapped: 0\\.2[0-9]* us" --stdout-regex "results: correct"
  RUN -n 16 --ranks-per-node 4 --progress ideal)
# thread and offload advance the rounds during the computation too, and pay
# their costs. thread: a poll every 2 us on a spare core plus a lock per
# call (0.32 us not overlapped). offload: the host writes the descriptors of
# every later round to the NIC when the collective starts (16 messages x
# nic-post-cost 0.3 us = 4.8 us, plus the wait's 0.2 us); against a pure
# collective time of 1.33 ms that is overlap 99.63%.
progsim_program_test(coll.overlap.thread PROGRAM iallreduce_overlap
  EXPECT --expect-outcome completed --twice --stdout-regex "overlap: 99\\.9[0-8][0-9]*%"
         --stdout-regex "not overlapped: 0\\.[2-4][0-9]* us" --stdout-regex "results: correct"
  RUN -n 16 --ranks-per-node 4 --progress thread)
progsim_program_test(coll.overlap.offload PROGRAM iallreduce_overlap
  EXPECT --expect-outcome completed --twice --stdout-regex "overlap: 99\\.[5-7][0-9]*%"
         --stdout-regex "not overlapped: 5\\.0[0-9]* us" --stdout-regex "results: correct"
  RUN -n 16 --ranks-per-node 4 --progress offload)
# The knob moves the figure: without the descriptor cost offload is ideal's.
progsim_program_test(coll.overlap.offload_free_posts PROGRAM iallreduce_overlap
  EXPECT --expect-outcome completed --stdout-regex "not overlapped: 0\\.2[0-9]* us"
  RUN -n 16 --ranks-per-node 4 --progress offload --cfg nic-post-cost=0)

# compare gates CI: a run that finished but is erroneous makes it exit 5.
progsim_program_test(compare.coll_order_erroneous PROGRAM coll_order
  EXPECT --command compare --expect-exit 5 --twice
         --stdout-regex "\nweak +erroneous +" --stdout-regex "\nideal +erroneous +"
         --stdout-regex "weak: erroneous program: every rank finished, but the program broke 1 rule"
  RUN -n 2 --policies weak,ideal)
