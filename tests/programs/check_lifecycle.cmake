# The checks every run makes of a program's life cycle and RMA epochs
# (docs/design/lifecycle-checks.md): at MPI_Finalize, messages never
# received and requests never completed (errors) and objects never freed
# (leaks: warnings, errors with --strict); MPI_Start of an active request;
# RMA operations outside an epoch, overlapping epochs of different kinds;
# conflicting accesses in a fence epoch (an undefined outcome: a warning,
# errors with --strict). Each program takes "bad" (the erroneous form,
# flagged with its rule, section, ranks and file:line) or "good" (its
# correct twin: no error), under every progress policy.

foreach(p lc_unreceived lc_request lc_leak lc_start_active lc_rma_epoch lc_rma_conflict)
  progsim_test_program(${p} ${p}.c)
endforeach()

foreach(policy weak thread offload ideal)
  # MPI-4.1 §11.2.2, Example 11.4: a send without a matching receive.
  progsim_program_test(check.lifecycle.unreceived.bad.${policy} PROGRAM lc_unreceived PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stdout-regex "rank 0: done" --stdout-regex "rank 1: done"
           --stderr-regex "error: MPI_Send\\(dest=1, tag=7, comm=MPI_COMM_WORLD, 4 bytes\\) of rank 0 was never received: rank 1 finalized without a matching receive \\(erroneous: MPI-4\\.1 §11\\.2\\.2"
           --check "/errors/0/rule=message never received" --check "/errors/0/section=MPI-4.1 §11.2.2"
           --check "/errors/0/ranks=[0]" --check "/errors/0/sites/0/call=MPI_Send"
           --check "/errors/0/sites/0/source=main (lc_unreceived.c:15)" --check "/leaks/count=0"
    RUN -n 2 --progress ${policy})
  progsim_program_test(check.lifecycle.unreceived.good.${policy} PROGRAM lc_unreceived PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --check "/errors=[]" --check "/leaks/count=0"
    RUN -n 2 --progress ${policy})

  # MPI-4.1 §11.2.2: an MPI_Isend never waited (complete, never returned by a
  # wait) and an MPI_Irecv never matched nor completed.
  progsim_program_test(check.lifecycle.request.bad.${policy} PROGRAM lc_request PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stderr-regex "error: rank 0's MPI_Isend\\(dest=1, tag=7, comm=MPI_COMM_WORLD, 4 bytes\\) completed, but no MPI_Wait or MPI_Test returned it \\(nor was it freed\\) before it finalized \\(erroneous: MPI-4\\.1 §11\\.2\\.2"
           --stderr-regex "error: rank 1's MPI_Irecv\\(source=0, tag=8, comm=MPI_COMM_WORLD, 4 bytes\\) never completed before it finalized"
           --check "/errors/0/rule=request not completed" --check "/errors/0/ranks=[0]"
           --check "/errors/0/sites/0/source=main (lc_request.c:18)"
           --check "/errors/1/rule=request not completed" --check "/errors/1/ranks=[1]"
           --check "/errors/1/sites/0/source=main (lc_request.c:24)"
    RUN -n 2 --progress ${policy})
  progsim_program_test(check.lifecycle.request.good.${policy} PROGRAM lc_request PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --check "/errors=[]" --check "/leaks/count=0"
    RUN -n 2 --progress ${policy})

  # Leaks: a warning, the run completes; --strict makes them errors.
  progsim_program_test(check.lifecycle.leak.bad.${policy} PROGRAM lc_leak PROGRAM_ARGS bad
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stderr-regex "warning: 4 MPI object\\(s\\) never freed before MPI_Finalize"
           --stderr-regex "communicator 0x44000003 of rank 0, created by MPI_Comm_dup at main \\(lc_leak\\.c:18\\)"
           --check "/errors=[]" --check "/leaks/count=4"
           --check "/leaks/items/0/kind=communicator" --check "/leaks/items/0/rank=0"
           --check "/leaks/items/0/call=MPI_Comm_dup" --check "/leaks/items/0/source=main (lc_leak.c:18)"
           --check "/leaks/items/1/kind=datatype" --check "/leaks/items/1/source=main (lc_leak.c:20)"
           --check "/leaks/items/2/kind=request" --check "/leaks/items/2/call=MPI_Send_init"
           --check "/leaks/items/2/source=main (lc_leak.c:22)"
           --check "/leaks/items/3/kind=communicator" --check "/leaks/items/3/rank=1"
    RUN -n 2 --progress ${policy})
  progsim_program_test(check.lifecycle.leak.strict.${policy} PROGRAM lc_leak PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stderr-regex "error: communicator 0x44000003 of rank 0, created by MPI_Comm_dup at main \\(lc_leak\\.c:18\\) \\(erroneous: MPI-4\\.1 §11\\.2\\.2"
           --check "/errors/0/rule=object never freed" --check "/errors/0/ranks=[0]"
           --check "/errors/0/sites/0/source=main (lc_leak.c:18)" --check "/leaks/count=4"
    RUN -n 2 --progress ${policy} --strict)
  progsim_program_test(check.lifecycle.leak.good.${policy} PROGRAM lc_leak PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --check "/errors=[]" --check "/leaks/count=0"
    RUN -n 2 --progress ${policy} --strict)

  # MPI-4.1 §3.9: MPI_Start of an active persistent request.
  progsim_program_test(check.lifecycle.start_active.bad.${policy} PROGRAM lc_start_active PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stdout-regex "rank 0: second MPI_Start failed"
           --stderr-regex "error: rank 0 started its MPI_Send_init request again while it was active \\(erroneous: MPI-4\\.1 §3\\.9"
           --check "/errors/0/rule=start of an active request" --check "/errors/0/ranks=[0]"
           --check "/errors/0/sites/0/call=MPI_Start" --check "/errors/0/sites/0/source=main (lc_start_active.c:22)"
    RUN -n 2 --progress ${policy})
  progsim_program_test(check.lifecycle.start_active.good.${policy} PROGRAM lc_start_active PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: second MPI_Start succeeded"
           --check "/errors=[]" --check "/leaks/count=0"
    RUN -n 2 --progress ${policy})

  # MPI-4.1 §12.5: an RMA operation outside any access epoch.
  progsim_program_test(check.rma.no_epoch.bad.${policy} PROGRAM lc_rma_epoch PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stdout-regex "rank 1: bad, MPI_ERR_RMA_SYNC returned"
           --stderr-regex "error: MPI_Put on window [0-9]+ at rank 1: no access epoch to rank 0 is open"
           --check "/errors/0/rule=RMA synchronization error" --check "/errors/0/section=MPI-4.1 §12.5"
           --check "/errors/0/ranks=[1]" --check "/errors/0/sites/0/source=main (lc_rma_epoch.c:24)"
    RUN -n 2 --progress ${policy})
  progsim_program_test(check.rma.no_epoch.good.${policy} PROGRAM lc_rma_epoch PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 1: good, no error" --check "/errors=[]" --check "/leaks/count=0"
    RUN -n 2 --progress ${policy})
  # MPI-4.1 §12.5: a lock epoch opened inside a fence epoch with operations.
  progsim_program_test(check.rma.mixed_epochs.bad.${policy} PROGRAM lc_rma_epoch PROGRAM_ARGS bad-mix
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stdout-regex "rank 1: bad-mix, MPI_ERR_RMA_SYNC returned"
           --stderr-regex "error: MPI_Win_lock on window [0-9]+ at rank 1: RMA operations were issued in the fence epoch, which is still open"
           --check "/errors/0/rule=RMA synchronization error"
           --check "/errors/0/ranks=[1]" --check "/errors/0/sites/0/source=main (lc_rma_epoch.c:38)"
    RUN -n 2 --progress ${policy})
  progsim_program_test(check.rma.mixed_epochs.good.${policy} PROGRAM lc_rma_epoch PROGRAM_ARGS good-mix
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 1: good-mix, no error" --check "/errors=[]"
    RUN -n 2 --progress ${policy})

  # MPI-4.1 §12.7: two puts to one location in one fence epoch. Not
  # erroneous since MPI-3: an undefined outcome, a warning, the run completes
  # (the report's "undefined"); an error with --strict.
  progsim_program_test(check.rma.conflict.bad.${policy} PROGRAM lc_rma_conflict PROGRAM_ARGS bad
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stderr-regex "warning: MPI_Put of rank [12] and MPI_Put of rank [12] both access bytes .0, 4. of rank 0's window memory in fence epoch #1 of window [0-9]+ \\(undefined outcome: MPI-4\\.1 §12\\.7 says that a program with a well-defined outcome"
           --check "/errors=[]"
           --check "/undefined/0/rule=conflicting RMA accesses" --check "/undefined/0/section=MPI-4.1 §12.7"
           --check "/undefined/0/sites/0/source=main (lc_rma_conflict.c:25)"
           --check "/undefined/0/sites/1/source=main (lc_rma_conflict.c:25)"
           --stderr-regex "warning: the MPI standard does not define this program's result \\(1 undefined outcome\\(s\\)"
    RUN -n 3 --progress ${policy})
  progsim_program_test(check.rma.conflict.strict.${policy} PROGRAM lc_rma_conflict PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stderr-regex "error: MPI_Put of rank [12] and MPI_Put of rank [12] both access bytes .0, 4. of rank 0's window memory in fence epoch #1 of window [0-9]+ \\(erroneous: MPI-4\\.1 §12\\.7 requires that \\(with --strict\\) a program with a well-defined outcome"
           --check "/undefined=[]"
           --check "/errors/0/rule=conflicting RMA accesses" --check "/errors/0/section=MPI-4.1 §12.7"
           --check "/errors/0/sites/0/source=main (lc_rma_conflict.c:25)"
           --check "/errors/0/sites/1/source=main (lc_rma_conflict.c:25)"
           --stderr-regex "the program broke 1 rule\\(s\\)"
    RUN -n 3 --progress ${policy} --strict)
  progsim_program_test(check.rma.conflict.good.${policy} PROGRAM lc_rma_conflict PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: good, window 1 2" --check "/errors=[]" --check "/undefined=[]"
    RUN -n 3 --progress ${policy})
  progsim_program_test(check.rma.conflict.accumulate.${policy} PROGRAM lc_rma_conflict PROGRAM_ARGS acc
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: acc, window 3 0" --check "/errors=[]" --check "/undefined=[]"
    RUN -n 3 --progress ${policy})
endforeach()
