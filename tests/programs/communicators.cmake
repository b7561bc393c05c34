# Program tests of communicator constructors that are collective over a
# group only (MPI-4.1 §7.4.2, §7.6.2). Each program prints
# "rank R: NAME ok (N checks)" on every rank when none of its checks failed.

progsim_test_program(comm_from_groups comm_from_groups.c)

foreach(policy weak ideal)
  # Successive MPI_Comm_create_group calls over random subgroups with one
  # tag, concurrent MPI_Comm_create_from_group calls, and
  # MPI_Intercomm_create_from_groups with point-to-point across and a merge.
  progsim_program_test(comm.from_groups.${policy} PROGRAM comm_from_groups
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: comm_from_groups ok" --stdout-regex "rank 7: comm_from_groups ok"
    RUN -n 8 --progress ${policy})
endforeach()
