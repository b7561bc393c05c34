# Conflicting RMA accesses beyond fence epochs (docs/design/lifecycle-checks.md,
# rma/AccessConflicts): in the access epochs matching one MPI_Win_post, and
# under shared locks held at once (MPI-4.1 §12.7, rule 2). Each conflicting
# form completes (not erroneous since MPI-3, its result is undefined) with
# an undefined outcome flagged with its rule, section and both calls'
# file:line; the twins with a defined outcome (other locations, epochs one
# after the other, a flush that made the first update visible, exclusive
# locks, accumulates of one type) complete without a finding, under every
# policy.

progsim_test_program(lc_rma_conflict_epochs lc_rma_conflict_epochs.c)

foreach(policy weak thread offload ideal)
  foreach(c "pscw-bad;in the exposure epoch of rank 0's MPI_Win_post #1;55"
            "lock-bad;under shared locks held at once;68")
    list(GET c 0 mode)
    list(GET c 1 epoch)
    list(GET c 2 line)
    progsim_program_test(check.rma.conflict.${mode}.${policy} PROGRAM lc_rma_conflict_epochs PROGRAM_ARGS ${mode}
      EXPECT --expect-outcome completed --expect-exit 0 --twice
             --stderr-regex "warning: MPI_Put of rank [12] and MPI_Put of rank [12] both access bytes .0, 4. of rank 0's window memory ${epoch} of window [0-9]+ \\(undefined outcome: MPI-4\\.1 §12\\.7"
             --check "/errors=[]"
             --check "/undefined/0/rule=conflicting RMA accesses" --check "/undefined/0/section=MPI-4.1 §12.7"
             --check "/undefined/0/sites/0/call=MPI_Put" --check "/undefined/0/sites/1/call=MPI_Put"
             --check "/undefined/0/sites/0/source=main (lc_rma_conflict_epochs.c:${line})"
             --check "/undefined/0/sites/1/source=main (lc_rma_conflict_epochs.c:${line})"
             --stderr-regex "1 undefined outcome\\(s\\)"
      RUN -n 3 --progress ${policy})
  endforeach()
  foreach(c "pscw-good;window 1 2" "pscw-seq;window 2 0" "lock-good;window 1 2" "lock-flush;window 2 0"
            "lock-excl;window [12] 0" "lock-acc;window 3 0")
    list(GET c 0 mode)
    list(GET c 1 result)
    progsim_program_test(check.rma.conflict.${mode}.${policy} PROGRAM lc_rma_conflict_epochs PROGRAM_ARGS ${mode}
      EXPECT --expect-outcome completed --expect-exit 0 --twice
             --stdout-regex "rank 0: ${mode}, ${result}" --check "/errors=[]" --check "/undefined=[]"
      RUN -n 3 --progress ${policy})
  endforeach()
endforeach()
# MPI_Win_start blocking until the post (an implementation freedom) changes nothing.
progsim_program_test(check.rma.conflict.pscw-seq.start-blocks PROGRAM lc_rma_conflict_epochs PROGRAM_ARGS pscw-seq
  EXPECT --expect-outcome completed --expect-exit 0 --twice --check "/errors=[]" --check "/undefined=[]"
  RUN -n 3 --cfg win-start-blocks=yes)
progsim_program_test(check.rma.conflict.pscw-bad.start-blocks PROGRAM lc_rma_conflict_epochs PROGRAM_ARGS pscw-bad
  EXPECT --expect-outcome completed --expect-exit 0 --twice --check "/errors=[]"
         --check "/undefined/0/rule=conflicting RMA accesses"
  RUN -n 3 --cfg win-start-blocks=yes)

# MPICH's rma/reqops ("Wait inside of an epoch"): every rank MPI_Rputs to
# one location of rank 0 under MPI_Win_lock_all, then MPI_Wait and
# MPI_Win_unlock_all. Its result is undefined, the program is not
# erroneous: the run completes with one undefined outcome (once per target
# under passive target), not `erroneous` as before MPI-3's rules were read
# right. The twin puts to distinct locations: no finding.
progsim_test_program(lc_rma_rput_same lc_rma_rput_same.c)
foreach(policy weak thread offload ideal)
  progsim_program_test(check.rma.conflict.rput_same.${policy} PROGRAM lc_rma_rput_same PROGRAM_ARGS same
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: same, ok"
           --stderr-regex "warning: MPI_Rput of rank [0-3] and MPI_Rput of rank [0-3] both access bytes .0, 4. of rank 0's window memory under shared locks held at once of window [0-9]+ \\(undefined outcome: MPI-4\\.1 §12\\.7"
           --check "/errors=[]" --check "/undefined/0/rule=conflicting RMA accesses"
           --check "/undefined/0/sites/0/call=MPI_Rput" --check "/undefined/0/sites/1/call=MPI_Rput"
           --check "/undefined/0/sites/0/source=main (lc_rma_rput_same.c:24)"
           --check "/undefined/0/sites/1/source=main (lc_rma_rput_same.c:24)"
           --stderr-regex "does not define this program's result \\(1 undefined outcome\\(s\\)"
    RUN -n 4 --progress ${policy})
  progsim_program_test(check.rma.conflict.rput_own.${policy} PROGRAM lc_rma_rput_same PROGRAM_ARGS own
    EXPECT --expect-outcome completed --expect-exit 0 --twice --stdout-regex "rank 0: own, ok"
           --check "/errors=[]" --check "/undefined=[]"
    RUN -n 4 --progress ${policy})
endforeach()
