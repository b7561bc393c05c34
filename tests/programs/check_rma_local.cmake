# A target's own loads and stores against another process's RMA operation
# on the same window bytes (docs/design/lifecycle-checks.md, "Local accesses
# against RMA operations"; rma/LocalAccessConflicts; MPI-4.1 §12.7 rule 1,
# §12.3). Each conflicting form completes (not erroneous since MPI-3, its
# result is undefined) with an undefined outcome naming the rule, the
# section, both ranks, the origin's call and the target's access with their
# file:line; its twin with a defined outcome (disjoint bytes, the access
# after the synchronization that completes the operation, two reads, a
# barrier after the unlock, the target's own exclusive lock) completes
# without a finding, under every policy.

progsim_test_program(lc_rma_local lc_rma_local.c)

foreach(policy weak thread offload ideal)
  foreach(c "fence-store;stored to;store;41;45;in fence epoch #1;the MPI_Win_fence that ends the epoch"
            "fence-load;loaded;load;41;49;in fence epoch #1;the MPI_Win_fence that ends the epoch"
            "lock-store;stored to;store;59;66;under a passive-target epoch of rank 1;the origin's MPI_Win_unlock or MPI_Win_flush"
            "pscw-store;stored to;store;86;91;in the exposure epoch of rank 0's MPI_Win_post #1;the MPI_Win_wait that ends the exposure epoch")
    list(GET c 0 mode)
    list(GET c 1 verb)
    list(GET c 2 access)
    list(GET c 3 put_line)
    list(GET c 4 access_line)
    list(GET c 5 epoch)
    list(GET c 6 until)
    progsim_program_test(check.rma.local.${mode}.${policy} PROGRAM lc_rma_local PROGRAM_ARGS ${mode}
      EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: ${mode}, done"
             --stderr-regex "warning: rank 0 ${verb} bytes .0, 1. of rank 0's window memory of window [0-9]+ while MPI_Put of rank 1 to bytes .0, 4. of rank 0's window memory ${epoch} was not complete there \\(until ${until}\\) \\(undefined outcome: MPI-4\\.1 §12\\.7"
             --stderr-regex "1 undefined outcome\\(s\\)"
             --check "/errors=[]"
             --check "/undefined/0/rule=conflicting local and RMA accesses" --check "/undefined/0/section=MPI-4.1 §12.7"
             --check "/undefined/0/sites/0/rank=1" --check "/undefined/0/sites/0/call=MPI_Put"
             --check "/undefined/0/sites/0/source=main (lc_rma_local.c:${put_line})"
             --check "/undefined/0/sites/1/rank=0" --check "/undefined/0/sites/1/call=${access}"
             --check "/undefined/0/sites/1/source=main (lc_rma_local.c:${access_line})"
      RUN -n 2 --progress ${policy})
  endforeach()
  foreach(mode fence-other fence-after fence-load-after fence-get lock-barrier lock-self pscw-after)
    progsim_program_test(check.rma.local.${mode}.${policy} PROGRAM lc_rma_local PROGRAM_ARGS ${mode}
      EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: ${mode}, done"
             --check "/errors=[]" --check "/undefined=[]"
      RUN -n 2 --progress ${policy})
  endforeach()
endforeach()
# --strict makes it an error, as the conflicts between RMA operations.
progsim_program_test(check.rma.local.fence-store.strict PROGRAM lc_rma_local PROGRAM_ARGS fence-store
  EXPECT --expect-outcome erroneous --expect-exit 5 --twice
         --stderr-regex "error: rank 0 stored to bytes .0, 1. of rank 0's window memory .* \\(erroneous: MPI-4\\.1 §12\\.7 requires that \\(with --strict\\)"
         --check "/undefined=[]" --check "/errors/0/rule=conflicting local and RMA accesses"
  RUN -n 2 --strict)
# Without memory watching there is no guard: nothing is found.
progsim_program_test(check.rma.local.fence-store.no_watch PROGRAM lc_rma_local PROGRAM_ARGS fence-store
  EXPECT --expect-outcome completed --expect-exit 0 --check "/undefined=[]"
  RUN -n 2 --cfg memory-watch=no)

# An accumulate against the target's own atomic read-modify-write of the
# location: still a conflict (the exception is for two accumulates of one
# predefined type); the twin adds with MPI_Accumulate to its own window.
progsim_test_program(lc_rma_local_acc lc_rma_local_acc.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(check.rma.local.acc-atomic.${policy} PROGRAM lc_rma_local_acc PROGRAM_ARGS atomic
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: atomic, cell"
           --stderr-regex "warning: rank 0 stored to bytes .0, 1. of rank 0's window memory of window [0-9]+ while MPI_Accumulate of rank 1 to bytes .0, 4. of rank 0's window memory in fence epoch #1 was not complete there"
           --check "/errors=[]"
           --check "/undefined/0/rule=conflicting local and RMA accesses"
           --check "/undefined/0/sites/0/call=MPI_Accumulate"
           --check "/undefined/0/sites/0/source=main (lc_rma_local_acc.c:25)"
           --check "/undefined/0/sites/1/call=store"
           --check "/undefined/0/sites/1/source=main (lc_rma_local_acc.c:29)"
    RUN -n 2 --progress ${policy})
  progsim_program_test(check.rma.local.acc-mpi.${policy} PROGRAM lc_rma_local_acc PROGRAM_ARGS mpi
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: mpi, cell 2"
           --check "/errors=[]" --check "/undefined=[]"
    RUN -n 2 --progress ${policy})
endforeach()
