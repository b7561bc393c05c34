# The Sessions Model (MPI-4.1 §11.3): sessions.c runs one scenario per
# argument (see its header). Each runs under every policy: the session
# communicators carry rendezvous messages whose protocol steps each policy
# runs its own way, and MPI_Session_finalize is a finalization that must run
# the rank's decoupled activities.
progsim_test_program(sessions sessions.c)

foreach(policy weak thread offload ideal)
  # No MPI_Init anywhere: a normal completed run, MPI_Initialized and
  # MPI_Finalized false, no "ended without calling MPI_Init".
  progsim_program_test(sessions.ring.${policy} PROGRAM sessions PROGRAM_ARGS ring
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-lines 8
           --stdout-regex "ring rank 0 of 4: token 103 from rank 3, 1 MiB from rank 3 correct\n"
           --stdout-regex "ring rank 2 of 4: token 101 from rank 1, 1 MiB from rank 1 correct\n"
           --stdout-regex "initialized=0 finalized=0 session=MPI_SESSION_NULL\n"
           --check /ranks/3/state=finished --check /ranks/3/sessions=1 --check /ranks/0/exit_code=0
    RUN -n 4 --ranks-per-node 2 --progress ${policy})
  progsim_program_test(sessions.two_at_once.${policy} PROGRAM sessions PROGRAM_ARGS two
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "two rank 2: progsim://host/node-1 has 2 processes \\(I am 0\\), mpi://WORLD 4\n"
           --stdout-regex "two rank 1: progsim://host/node-0 has 2 processes \\(I am 1\\), mpi://WORLD 4\n"
           --stdout-regex "two rank 3 of 4: token 102 from rank 2, 1 MiB from rank 2 correct\n"
           --check /ranks/0/sessions=2
    RUN -n 4 --ranks-per-node 2 --progress ${policy})
  progsim_program_test(sessions.intercomm_from_groups.${policy} PROGRAM sessions PROGRAM_ARGS intercomm
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-lines 4
           --stdout-regex "intercomm node-0 rank 1: remote size 2, remote sum 20\n"
           --stdout-regex "intercomm node-1 rank 0: remote size 2, remote sum 2\n"
    RUN -n 4 --ranks-per-node 2 --progress ${policy})
  progsim_program_test(sessions.mixed_with_world.${policy} PROGRAM sessions PROGRAM_ARGS mixed
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "mixed rank 1: compare with MPI_COMM_WORLD MPI_CONGRUENT, sum of ranks 6\n"
           --stdout-regex "after MPI_Finalize rank 0 of 4: token 103 from rank 3, 1 MiB from rank 3 correct\n"
    RUN -n 4 --progress ${policy})
  # MPI_Session_finalize runs the buffered send's rendezvous (rank 1
  # receives 1 s later): under weak nobody else would.
  progsim_program_test(sessions.finalize_runs_bsend.${policy} PROGRAM sessions PROGRAM_ARGS bsend
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "bsend rank 1: received correct data at 1\\.000"
           --stdout-regex "bsend rank 0: MPI_Session_finalize returned at 1\\.000"
    RUN -n 2 --progress ${policy})
  # MPI-4.1 §11.3.1: MPI_Session_finalize "may be synchronizing" on the
  # groups of the communicators derived from the session and not freed.
  # Finalized in opposite orders, two sessions complete when it does not,
  # and deadlock when it does: an implementation freedom.
  progsim_program_test(sessions.finalize_order_local.${policy} PROGRAM sessions PROGRAM_ARGS finalize_order
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "finalize_order rank 0: both sessions finalized\n"
           --stdout-regex "finalize_order rank 1: both sessions finalized\n"
    RUN -n 2 --progress ${policy} --cfg session-finalize-sync=local)
  progsim_program_test(sessions.finalize_waits_collective.${policy} PROGRAM sessions PROGRAM_ARGS finalize_wait
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "finalize_wait rank 0: MPI_Session_finalize returned at 1\\.0000\n"
    RUN -n 2 --progress ${policy} --cfg session-finalize-sync=collective)
  progsim_program_test(sessions.finalize_waits_local.${policy} PROGRAM sessions PROGRAM_ARGS finalize_wait
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "finalize_wait rank 0: MPI_Session_finalize returned at 0\\.0000\n"
    RUN -n 2 --progress ${policy} --cfg session-finalize-sync=local)
  progsim_program_test(sessions.finalize_order_collective.${policy} PROGRAM sessions PROGRAM_ARGS finalize_order
    EXPECT --expect-outcome deadlock --expect-exit 3 --twice
           --stderr-regex "rank 0: blocked since t=[0-9.]+ s in MPI_Session_finalize \\(synchronizing[^\n]*waits for rank 1 on the communicator \\(context [0-9]+, 2 processes\\)\\) at scenario_finalize_order \\(sessions\\.c:[0-9]+\\)"
           --stderr-regex "class: depends on an implementation freedom - MPI_Session_finalize may or may not synchronize"
           --check "/deadlock/class=depends on an implementation freedom"
    RUN -n 2 --progress ${policy} --cfg session-finalize-sync=collective)
endforeach()

progsim_program_test(sessions.psets PROGRAM sessions PROGRAM_ARGS psets
  EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-lines 20
         --stdout-regex "psets rank 3: 0 of 4: mpi://WORLD \\(length 12\\) mpi_size=4\n"
         --stdout-regex "psets rank 2: 1 of 4: mpi://SELF \\(length 11\\) mpi_size=1\n"
         --stdout-regex "psets rank 1: 3 of 4: progsim://host/node-1 \\(length 22\\) mpi_size=2\n"
         --stdout-regex "psets rank 0: truncated 'mpi:/' length 12, thread_level MPI_THREAD_FUNNELED, mpi://self size 1\n"
  RUN -n 4 --ranks-per-node 2)
progsim_program_test(sessions.errors_return PROGRAM sessions PROGRAM_ARGS errors_return
  EXPECT --expect-outcome completed --expect-exit 0 --twice
         --stdout-regex "unknown pset returned MPI_ERR_ARG\npset 99 returned MPI_ERR_ARG\nget_errhandler gives the handler set\n"
         --stdout-regex "session error handler called: MPI_ERR_OTHER"
  RUN -n 1)
progsim_program_test(sessions.unknown_pset_fatal PROGRAM sessions PROGRAM_ARGS unknown_pset
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stderr-regex "rank [01]: MPI_Group_from_session_pset: MPI_ERR_ARG \\([^)]*\\): no process set named 'mpi://NOWHERE'[^\n]* at t=[0-9.]+ s. the error handler is MPI_ERRORS_ARE_FATAL"
  RUN -n 2)
progsim_program_test(sessions.use_after_finalize PROGRAM sessions PROGRAM_ARGS after_finalize
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stderr-regex "rank 0: MPI_Session_get_num_psets: MPI_ERR_SESSION \\(invalid session handle\\): the session was finalized by an earlier MPI_Session_finalize"
  RUN -n 1)
progsim_program_test(sessions.dup_after_finalize PROGRAM sessions PROGRAM_ARGS dup_after_finalize
  EXPECT --expect-outcome aborted --expect-exit 1 --twice
         --stderr-regex "rank 0: MPI_Comm_rank: MPI_ERR_COMM \\(invalid communicator\\): the communicator belongs to a session finalized by an earlier MPI_Session_finalize"
  RUN -n 1)
progsim_program_test(sessions.world_comm_without_init PROGRAM sessions PROGRAM_ARGS world_comm
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "MPI_Comm_rank: MPI_ERR_COMM \\(invalid communicator\\): MPI_COMM_WORLD is valid only between MPI_Init and MPI_Finalize"
  RUN -n 2)
progsim_program_test(sessions.exit_without_session_finalize PROGRAM sessions PROGRAM_ARGS no_finalize
  EXPECT --expect-outcome aborted --expect-exit 1
         --stderr-regex "rank [01] exited \\(code 0\\) without calling MPI_Session_finalize on 1 session\\(s\\) at t=[0-9.]+ s. its last MPI call was MPI_Session_init"
  RUN -n 2)
