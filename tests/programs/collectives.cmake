# Program tests of communicators, groups, attributes, info objects and the
# interim blocking collectives (MPI-4.1 chapters 6, 7, 9.3, 10). Each
# program counts its failed checks and prints "rank R: NAME ok (N checks)"
# on every rank when none failed (it aborts otherwise). Every test runs under
# the weak and the ideal progress policies.

foreach(p coll_all coll_mismatch comm_split comm_attr comm_group comm_inter)
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
  # the mismatch is reported naming both calls, and the run deadlocks. With
  # an eager broadcast rank 0 finishes; with a rendezvous one both block.
  progsim_program_test(coll.mismatch.${policy} PROGRAM coll_mismatch
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "warning: collective mismatch on MPI_COMM_WORLD: its collective call #2 is MPI_Barrier at rank 1 but MPI_Bcast at rank 0"
           --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Barrier\\(comm=MPI_COMM_WORLD\\), waiting for a message from rank 0"
           --stderr-regex "rank 0: finished at"
    RUN -n 2 --progress ${policy})
  progsim_program_test(coll.mismatch_large.${policy} PROGRAM coll_mismatch
    EXPECT --expect-outcome deadlock --expect-exit 3
           --stderr-regex "warning: collective mismatch on MPI_COMM_WORLD"
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Bcast\\(comm=MPI_COMM_WORLD\\), sending to rank 1"
           --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Barrier\\(comm=MPI_COMM_WORLD\\), waiting for a message from rank 0"
    RUN -n 2 --progress ${policy} PROGRAM_ARGS large)

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
