# MPI_Cancel of sends (MPI-4.1 §3.8.4, p2p/SendCancel.cpp) and what
# MPI_Finalize does first and last (§11.2.4, §11.2.2), part of issue 15.

progsim_test_program(cancel_send cancel_send.c)
progsim_test_program(finalize_callbacks finalize_callbacks.c)

# Rank 1's chunk that takes the withdrawn message out of its queue, run by
# rank 1 itself inside MPI_Finalize (the timeline's chunk event).
set(cancel_step_in_finalize
    "cancel\\.on_withdraw_target\\(message [0-9]+, rank 0 -> 1, 4 B[^\"]*\\)\",\\s*\"cat\":\\s*\"chunk\",[^}]*\"tid\":\\s*1,\\s*\"args\":\\s*\\{\\s*\"executor\":\\s*\"rank\",\\s*\"in_call\":\\s*\"MPI_Finalize\"")

foreach(policy weak thread offload ideal)
  # MPI-3.1 Example 8.9 ("The program is correct"): rank 1 only finalizes.
  set(extra)
  if(policy STREQUAL "weak")
    set(extra --timeline-regex "${cancel_step_in_finalize}")
  endif()
  progsim_program_test(cancel.example89.${policy} PROGRAM cancel_send PROGRAM_ARGS example89
    EXPECT --expect-outcome completed --expect-exit 0 --twice ${extra}
           --stdout-regex "rank 0: wait returned at 0\\.0000[0-9]+, cancelled=1\n"
           --stdout-regex "rank 0: example89 ok"
    RUN -n 2 --progress ${policy})
  # MPI_Wait after MPI_Cancel is local: it returns while rank 1 computes 5 s
  # (under weak too); rank 1's MPI_Finalize then learns of the cancel.
  set(extra)
  if(policy STREQUAL "weak")
    set(extra --timeline-regex "${cancel_step_in_finalize}")
  endif()
  progsim_program_test(cancel.busy_target.${policy} PROGRAM cancel_send PROGRAM_ARGS busy_target
    EXPECT --expect-outcome completed --expect-exit 0 --twice ${extra}
           --stdout-regex "rank 0: wait returned at 0\\.0000[0-9]+, cancelled=1\n"
           --stdout-regex "rank 1: finalized at 5\\.0000"
    RUN -n 2 --progress ${policy})
  # A cancel that arrives after the match fails: the send completes normally.
  progsim_program_test(cancel.after_match.${policy} PROGRAM cancel_send PROGRAM_ARGS after_match
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: 8 B cancel after the match: cancelled=0\n"
           --stdout-regex "rank 1: received 8 B, data correct, cancelled=0\n"
           --stdout-regex "rank 0: 1048576 B cancel after the match: cancelled=0\n"
           --stdout-regex "rank 1: received 1048576 B, data correct, cancelled=0\n"
    RUN -n 2 --progress ${policy})
  # Eager data, a rendezvous RTS, a buffered send, unmatched at rank 1.
  foreach(kind eager rendezvous bsend)
    progsim_program_test(cancel.${kind}.${policy} PROGRAM cancel_send PROGRAM_ARGS ${kind}
      EXPECT --expect-outcome completed --expect-exit 0 --twice
             --stdout-regex "rank 0: I[bs]*send of [0-9]+ B unmatched at rank 1: cancelled=1\n"
             --stdout-regex "rank 1: the sender says cancelled=1. the message is gone\n"
      RUN -n 2 --progress ${policy})
  endforeach()

  # A delete callback on MPI_COMM_SELF that MPI_Bsend's 1 MiB to rank 1,
  # blocked in MPI_Recv: rank 0's MPI_Finalize runs it and moves the data.
  progsim_program_test(finalize.self_delete_bsend.${policy} PROGRAM finalize_callbacks PROGRAM_ARGS bsend
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: delete callback sends 1048576 B with MPI_Bsend\n"
           --stdout-regex "rank 1: received 1048576 B from rank 0's delete callback at [0-9.]+, data correct\n"
           --stdout-regex "rank 0: finalized\n"
    RUN -n 2 --progress ${policy})
  progsim_program_test(finalize.self_delete_order.${policy} PROGRAM finalize_callbacks PROGRAM_ARGS order
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: delete callbacks ran in the order acb\n"
    RUN -n 2 --progress ${policy})
endforeach()

# An Issend never received nor cancelled: rank 1's MPI_Finalize waits for
# rank 0, which waits for the receive: both are named in the explanation.
progsim_test_program(issend_never_received issend_never_received.c)
progsim_program_test(finalize.waits_for_cancellable_send PROGRAM issend_never_received
  EXPECT --expect-outcome deadlock --expect-exit 3 --twice
         --stderr-regex "rank 1: blocked since t=[0-9.]+ s in MPI_Finalize \\(waiting for its pending decoupled activities: [^\n]*rank 0 may still cancel its MPI_Issend\\(dest=1, tag=0"
         --stderr-regex "waits for rank 0 to complete, free or cancel its MPI_Issend\\(dest=1, tag=0, comm=MPI_COMM_WORLD, 4 bytes\\) \\(MPI_Finalize waits until no send to it can still be cancelled, MPI-4.1 §11.2.2\\)"
         --stderr-regex "class: incorrect under every MPI"
  RUN -n 2)
