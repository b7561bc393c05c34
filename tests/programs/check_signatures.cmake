# Type signatures and collective argument agreement, checked in every run
# (docs/design/checks.md, issue 16). Each check has an erroneous program,
# flagged with its rule, section, ranks and both calls' file:line, and a
# correct twin that differs minimally and must complete without an error;
# every one under the four policies (the check must not depend on who
# progresses the messages), twice (determinism).

foreach(p check_type_p2p check_coll_args check_type_rma check_type_part check_type_neighbor)
  progsim_test_program(${p} ${p}.c)
endforeach()

set(check_sig_no_error --expect-outcome completed --expect-exit 0 --twice --check "/errors=[]")
set(check_sig_erroneous --expect-outcome erroneous --expect-exit 5 --twice)

foreach(policy weak thread offload ideal)
  # Point-to-point (MPI-4.1 §3.3.1): an eager MPI_FLOAT message received as
  # MPI_INT, a rendezvous MPI_INT message received as MPI_UNSIGNED.
  progsim_program_test(check.type.p2p.bad.${policy} PROGRAM check_type_p2p
    EXPECT ${check_sig_erroneous}
      --stderr-regex "error: type mismatch: rank 0 sent 4 x MPI_FLOAT \\(tag 7\\) and rank 1 received it as 4 x MPI_INT \\(erroneous: MPI-4\\.1 §3\\.3\\.1 requires that the type signature of a message"
      --stderr-regex "rank 0: MPI_Send at main \\(check_type_p2p\\.c:31\\)\n  rank 1: MPI_Recv at main \\(check_type_p2p\\.c:34\\)"
      --check "/errors/0/rule=type mismatch" --check "/errors/0/section=MPI-4.1 §3.3.1"
      --check "/errors/0/ranks=[0,1]"
      --check "/errors/0/sites/0/call=MPI_Send" --check "/errors/0/sites/0/source=main (check_type_p2p.c:31)"
      --check "/errors/0/sites/1/call=MPI_Recv" --check "/errors/0/sites/1/source=main (check_type_p2p.c:34)"
      --check "/errors/1/rule=type mismatch" --check "/errors/1/ranks=[1,0]"
      --check "/errors/1/sites/0/source=main (check_type_p2p.c:35)"
      --check "/errors/1/sites/1/source=main (check_type_p2p.c:32)"
    RUN -n 2 --progress ${policy} PROGRAM_ARGS bad)
  progsim_program_test(check.type.p2p.good.${policy} PROGRAM check_type_p2p
    EXPECT ${check_sig_no_error}
    RUN -n 2 --progress ${policy} PROGRAM_ARGS good)

  # Collectives (MPI-4.1 chapter 6): MODE RULE SECTION RANKS LINE_OF_FIRST LINE_OF_SECOND.
  foreach(c "root;collective argument mismatch;6.4;[0,2];40;40"
            "op;collective argument mismatch;6.9.6;[0,2];44;44"
            "inplace;collective argument mismatch;6.9.6;[0,1];48;48"
            "bcast;type mismatch;6.4;[0,2];52;54"
            "gather;type mismatch;6.5;[0,2];58;60"
            "alltoall;type mismatch;6.8;[0,1];64;64"
            "reduce;type mismatch;6.9.1;[0,2];68;68"
            "scatterv;type mismatch;6.6;[0,2];73;73")
    list(GET c 0 mode)
    list(GET c 1 rule)
    list(GET c 2 section)
    list(GET c 3 ranks)
    list(GET c 4 first)
    list(GET c 5 second)
    progsim_program_test(check.coll.${mode}.${policy} PROGRAM check_coll_args
      EXPECT ${check_sig_erroneous}
        --stderr-regex "erroneous program: every rank finished, but the program broke 1 rule\\(s\\)"
        --check "/errors/0/rule=${rule}" --check "/errors/0/section=MPI-4.1 §${section}"
        --check "/errors/0/ranks=${ranks}"
        --check "/errors/0/sites/0/source=main (check_coll_args.c:${first})"
        --check "/errors/0/sites/1/source=main (check_coll_args.c:${second})"
      RUN -n 3 --progress ${policy} PROGRAM_ARGS ${mode})
  endforeach()
  progsim_program_test(check.coll.good.${policy} PROGRAM check_coll_args
    EXPECT ${check_sig_no_error}
    RUN -n 3 --progress ${policy} PROGRAM_ARGS good)

  # One-sided (MPI-4.1 §12.3.1): 4 MPI_FLOAT put into 4 MPI_INT.
  progsim_program_test(check.type.rma.bad.${policy} PROGRAM check_type_rma
    EXPECT ${check_sig_erroneous}
      --stderr-regex "error: type mismatch: MPI_Put of rank 0 on window 1 names 4 x MPI_FLOAT at the origin but 4 x MPI_INT at target rank 1"
      --check "/errors/0/rule=type mismatch" --check "/errors/0/section=MPI-4.1 §12.3.1"
      --check "/errors/0/ranks=[0]" --check "/errors/0/sites/0/call=MPI_Put"
      --check "/errors/0/sites/0/source=main (check_type_rma.c:28)"
    RUN -n 2 --progress ${policy} PROGRAM_ARGS bad)
  progsim_program_test(check.type.rma.good.${policy} PROGRAM check_type_rma
    EXPECT ${check_sig_no_error}
    RUN -n 2 --progress ${policy} PROGRAM_ARGS good)
endforeach()

# Partitioned communication (MPI-4.1 §4.2.2, §3.3.1): 4 partitions of 2
# MPI_INT received as 2 partitions of 4 MPI_FLOAT (bad) or MPI_INT (good),
# under both ways partitions travel.
foreach(policy weak thread offload ideal)
  foreach(aggregation per-partition whole-message)
    progsim_program_test(check.type.part.bad.${aggregation}.${policy} PROGRAM check_type_part
      EXPECT ${check_sig_erroneous}
        --stderr-regex "error: type mismatch: rank 0's MPI_Psend_init \\(tag 5\\) sends 8 basic elements whose types differ from those rank 1's MPI_Precv_init receives \\(8 x MPI_FLOAT\\) \\(erroneous: MPI-4\\.1 §4\\.2\\.2"
        --check "/errors/0/rule=type mismatch" --check "/errors/0/section=MPI-4.1 §4.2.2"
        --check "/errors/0/ranks=[0,1]"
        --check "/errors/0/sites/0/call=MPI_Psend_init" --check "/errors/0/sites/0/source=main (check_type_part.c:20)"
        --check "/errors/0/sites/1/call=MPI_Precv_init" --check "/errors/0/sites/1/source=main (check_type_part.c:26)"
      RUN -n 2 --progress ${policy} --cfg part-aggregation=${aggregation} PROGRAM_ARGS bad)
    progsim_program_test(check.type.part.good.${aggregation}.${policy} PROGRAM check_type_part
      EXPECT ${check_sig_no_error} --stdout-regex "rank 1: 7"
      RUN -n 2 --progress ${policy} --cfg part-aggregation=${aggregation} PROGRAM_ARGS good)
  endforeach()
endforeach()

# Neighborhood collectives (MPI-4.1 §8.6): per neighbor pair, the portion
# sent against the portion received; rank 2 receives MPI_INT as MPI_FLOAT
# from both its neighbors (bad).
foreach(policy weak thread offload ideal)
  progsim_program_test(check.type.neighbor.bad.${policy} PROGRAM check_type_neighbor
    EXPECT ${check_sig_erroneous}
      --stderr-regex "error: type mismatch: rank [01] sent 2 x MPI_INT in MPI_Neighbor_alltoall and rank 2 received it as 2 x MPI_FLOAT \\(erroneous: MPI-4\\.1 §8\\.6"
      --check "/errors/0/rule=type mismatch" --check "/errors/0/section=MPI-4.1 §8.6"
      --check "/errors/0/sites/0/call=MPI_Neighbor_alltoall" --check "/errors/0/sites/0/source=main (check_type_neighbor.c:22)"
      --check "/errors/0/sites/1/call=MPI_Neighbor_alltoall" --check "/errors/0/sites/1/source=main (check_type_neighbor.c:22)"
      --check "/errors/0/sites/1/rank=2"
    RUN -n 3 --progress ${policy} PROGRAM_ARGS bad)
  progsim_program_test(check.type.neighbor.good.${policy} PROGRAM check_type_neighbor
    EXPECT ${check_sig_no_error} --stdout-regex "rank 2: 12 0"
    RUN -n 3 --progress ${policy} PROGRAM_ARGS good)
endforeach()

# Intercommunicator collectives (MPI-4.1 §6.2.2): ic_args.c, world ranks 0-1
# group A, 2-3 group B. A portion of group B that does not match the
# root's receive (Gather), a member whose signature differs from the other
# group's (Allreduce): the run completes, erroneous; both calls named. B
# naming as root a member of A that passed MPI_PROC_NULL (Bcast): the
# broadcast never reaches B (a deadlock), and the error names the
# disagreement. Each "good" twin differs in that one argument.
progsim_test_program(ic_args ic_args.c)
# A reduction on the intercommunicator whose world rank 3 passes 4 MPI_FLOAT
# against the others' 4 MPI_INT at ic_args.c:LINE (bad), and its twin.
macro(ic_reduction mode call section line good_stdout)
  progsim_program_test(check.coll.inter.${mode}.bad.${policy} PROGRAM ic_args PROGRAM_ARGS ${mode} bad
    EXPECT ${check_sig_erroneous}
      --stderr-regex "type mismatch in ${call}: .*4 x MPI_(INT|FLOAT).* 4 x MPI_(FLOAT|INT)"
      --check "/errors/0/rule=type mismatch" --check "/errors/0/section=${section}"
      --check "/errors/0/sites/0/source=main (ic_args.c:${line})" --check "/errors/0/sites/1/source=main (ic_args.c:${line})"
    RUN -n 4 --progress ${policy})
  progsim_program_test(check.coll.inter.${mode}.good.${policy} PROGRAM ic_args PROGRAM_ARGS ${mode} good
    EXPECT ${check_sig_no_error} --stdout-regex "${good_stdout}"
    RUN -n 4 --progress ${policy})
endmacro()
foreach(policy weak thread offload ideal)
  progsim_program_test(check.coll.inter.gather.bad.${policy} PROGRAM ic_args PROGRAM_ARGS gather bad
    EXPECT ${check_sig_erroneous}
      --stderr-regex "type mismatch in MPI_Gather: rank [01] \\(world rank [0-3]\\) (sends|receives from)"
      --stderr-regex "ic_args\\.c:32\\)" --stderr-regex "ic_args\\.c:34\\)"
      --check "/errors/0/rule=type mismatch" --check "/errors/0/section=MPI-4.1 §6.5"
    RUN -n 4 --progress ${policy})
  progsim_program_test(check.coll.inter.gather.good.${policy} PROGRAM ic_args PROGRAM_ARGS gather good
    EXPECT ${check_sig_no_error} --stdout-regex "rank 0: 2 12 3"
    RUN -n 4 --progress ${policy})
  ic_reduction(allreduce MPI_Allreduce "MPI-4.1 §6.9.6" 39 "rank 0: 5")
  progsim_program_test(check.coll.inter.bcast_root.bad.${policy} PROGRAM ic_args PROGRAM_ARGS bcast bad
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
      --stderr-regex "error: MPI_Bcast on an intercommunicator with (root 1 at rank [01] \\(world rank [23]\\)|MPI_PROC_NULL at rank 1 \\(world rank 1\\)|MPI_ROOT at rank 0 \\(world rank 0\\)) but"
      --stderr-regex "ic_args\\.c:45\\)" --stderr-regex "ic_args\\.c:47\\)"
      --check "/errors/0/rule=collective argument mismatch" --check "/errors/0/section=MPI-4.1 §6.4"
    RUN -n 4 --progress ${policy})
  progsim_program_test(check.coll.inter.bcast_root.good.${policy} PROGRAM ic_args PROGRAM_ARGS bcast good
    EXPECT ${check_sig_no_error} --stdout-regex "rank 3: 0"
    RUN -n 4 --progress ${policy})
  # MPI_Reduce_scatter: each group's whole input against the other group's
  # (its result is scattered there, MPI-4.1 §6.10.1).
  ic_reduction(reduce_scatter MPI_Reduce_scatter "MPI-4.1 §6.10" 53 "rank 0: 5 5")
endforeach()
