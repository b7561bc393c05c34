# --check buffers (docs/design/checks.md, diagnosis/PendingBuffers): the
# program's accesses to the buffer of a pending nonblocking or persistent
# point-to-point operation (MPI-4.1 §3.7.2). Each program takes "bad" (the
# erroneous form, flagged with rule, section, rank, the starting call's and
# the access's file:line) or "good" (its correct twin: reads of a send
# buffer, accesses next to the buffer on the same page, in the holes of a
# vector type, between the rounds of a persistent request: no error), under
# every progress policy.

foreach(p cb_send cb_recv cb_persistent)
  progsim_test_program(${p} ${p}.c)
endforeach()

foreach(policy weak thread offload ideal)
  progsim_program_test(check.buffers.send.bad.${policy} PROGRAM cb_send PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stdout-regex "rank 1: 1 4 0"
           --stderr-regex "error: rank 0 wrote to byte 8 of the send buffer of its MPI_Isend before the operation completed \\(MPI_Wait, MPI_Test\\.\\.\\.\\) \\(erroneous: MPI-4\\.1 §3\\.7\\.2"
           --check "/errors/0/rule=buffer of a pending operation accessed" --check "/errors/0/section=MPI-4.1 §3.7.2"
           --check "/errors/0/ranks=[0,0]" --check "/errors/0/sites/0/call=MPI_Isend"
           --check "/errors/0/sites/0/source=main (cb_send.c:26)" --check "/errors/0/sites/1/call=write"
           --check "/errors/0/sites/1/source=main (cb_send.c:29)"
    RUN -n 2 --progress ${policy} --check buffers)
  progsim_program_test(check.buffers.send.good.${policy} PROGRAM cb_send PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 0: 1 4 5" --stdout-regex "rank 1: 1 4 0" --check "/errors=[]"
    RUN -n 2 --progress ${policy} --check buffers)

  progsim_program_test(check.buffers.recv.bad.${policy} PROGRAM cb_recv PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stderr-regex "error: rank 1 read byte 40 of the receive buffer of its MPI_Irecv before the operation completed"
           --check "/errors/0/rule=buffer of a pending operation accessed" --check "/errors/0/section=MPI-4.1 §3.7.2"
           --check "/errors/0/ranks=[1,1]" --check "/errors/0/sites/0/call=MPI_Irecv"
           --check "/errors/0/sites/0/source=main (cb_recv.c:29)" --check "/errors/0/sites/1/call=read"
           --check "/errors/0/sites/1/source=main (cb_recv.c:32)"
    RUN -n 2 --progress ${policy} --check buffers)
  progsim_program_test(check.buffers.recv.good.${policy} PROGRAM cb_recv PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 1: 5.5 1" --check "/errors=[]"
    RUN -n 2 --progress ${policy} --check buffers)

  progsim_program_test(check.buffers.persistent.bad.${policy} PROGRAM cb_persistent PROGRAM_ARGS bad
    EXPECT --expect-outcome erroneous --expect-exit 5 --twice
           --stderr-regex "error: rank 0 wrote to byte 32 of the send buffer of its MPI_Send_init started by MPI_Start before the operation completed"
           --check "/errors/0/rule=buffer of a pending operation accessed" --check "/errors/0/section=MPI-4.1 §3.7.2"
           --check "/errors/0/ranks=[0,0]" --check "/errors/0/sites/0/call=MPI_Start"
           --check "/errors/0/sites/0/source=main (cb_persistent.c:27)" --check "/errors/0/sites/1/call=write"
           --check "/errors/0/sites/1/source=main (cb_persistent.c:30)"
    RUN -n 2 --progress ${policy} --check buffers)
  progsim_program_test(check.buffers.persistent.good.${policy} PROGRAM cb_persistent PROGRAM_ARGS good
    EXPECT --expect-outcome completed --expect-exit 0 --twice
           --stdout-regex "rank 1: 1 5 9 13" --stdout-regex "rank 1: 1 5 9 23" --check "/errors=[]"
    RUN -n 2 --progress ${policy} --check buffers)
endforeach()

# Off by default, and the --cfg form.
progsim_program_test(check.buffers.off PROGRAM cb_send PROGRAM_ARGS bad
  EXPECT --expect-outcome completed --expect-exit 0 --check "/errors=[]"
  RUN -n 2)
progsim_program_test(check.buffers.cfg PROGRAM cb_recv PROGRAM_ARGS bad
  EXPECT --expect-outcome erroneous --expect-exit 5 --check "/errors/0/rule=buffer of a pending operation accessed"
  RUN -n 2 --cfg check-buffers=yes)

# Beyond point-to-point: nonblocking and persistent collectives (MPI-4.1
# §6.12, §6.13) and RMA operations until they complete at the origin
# (§12.3, §12.3.5: a request-based one's buffer is free after the flush
# that completes it, before MPI_Wait: rput_flush.good). Each
# "bad" run is flagged once, with the starting call's and the access's
# lines; each "good" twin (a read of a send buffer, data next to a buffer,
# a gap between the blocks of MPI_Igatherv, a write between two rounds of a
# persistent collective) is not.
foreach(p cb_coll cb_rma)
  progsim_test_program(${p} ${p}.c)
endforeach()

function(cb_bad name program mode section rank verb byte role call call_line access access_line)
  foreach(policy weak thread offload ideal)
    progsim_program_test(check.buffers.${name}.bad.${policy} PROGRAM ${program} PROGRAM_ARGS ${mode} bad
      EXPECT --expect-outcome erroneous --expect-exit 5 --twice
             --stderr-regex "error: rank ${rank} ${verb} byte ${byte} of the ${role} buffer of its ${call} before the operation completed"
             --check "/errors/0/rule=buffer of a pending operation accessed" --check "/errors/0/section=${section}"
             --check "/errors/0/ranks=[${rank},${rank}]"
             --check "/errors/0/sites/0/source=main (${program}.c:${call_line})" --check "/errors/0/sites/1/call=${access}"
             --check "/errors/0/sites/1/source=main (${program}.c:${access_line})"
      RUN -n 2 --progress ${policy} --check buffers)
  endforeach()
endfunction()

function(cb_good name program mode)
  foreach(policy weak thread offload ideal)
    progsim_program_test(check.buffers.${name}.good.${policy} PROGRAM ${program} PROGRAM_ARGS ${mode} good
      EXPECT --expect-outcome completed --expect-exit 0 --twice --check "/errors=[]" ${ARGN}
      RUN -n 2 --progress ${policy} --check buffers)
  endforeach()
endfunction()

cb_bad(ibcast cb_coll bcast "MPI-4.1 §6.12" 0 "wrote to" 8 send MPI_Ibcast 39 write 43)
cb_good(ibcast cb_coll bcast --stdout-regex "rank 0: 1 4" --stdout-regex "rank 1: 1 4")
cb_bad(iallreduce cb_coll allreduce "MPI-4.1 §6.12" 1 read 4 receive MPI_Iallreduce 51 read 53)
cb_good(iallreduce cb_coll allreduce --stdout-regex "rank 0: 1 7" --stdout-regex "rank 1: 1 7")
cb_bad(igatherv cb_coll gatherv "MPI-4.1 §6.12" 0 "wrote to" 20 receive MPI_Igatherv 60 write 62)
cb_good(igatherv cb_coll gatherv --stdout-regex "rank 0: 1 2 11 99")
cb_bad(persistent_coll cb_coll persistent "MPI-4.1 §6.12" 0 "wrote to" 12 send "MPI_Allreduce_init started by MPI_Start"
       85 write 87)
cb_good(persistent_coll cb_coll persistent --stdout-regex "rank 0: round 0 1" --stdout-regex "rank 1: round 1 3")
cb_bad(ineighbor cb_coll neighbor "MPI-4.1 §6.12" 1 read 0 receive MPI_Ineighbor_alltoall 73 read 74)
cb_good(ineighbor cb_coll neighbor --stdout-regex "rank 0: 11 1" --stdout-regex "rank 1: 10 0")
cb_bad(rput cb_rma rput "MPI-4.1 §12.3, §12.3.5" 0 "wrote to" 4 origin MPI_Rput 41 write 44)
cb_good(rput cb_rma rput --stdout-regex "rank 0: 1 4 5" --stdout-regex "rank 1: 1 4 0")
cb_bad(put cb_rma put "MPI-4.1 §12.3, §12.3.5" 0 "wrote to" 4 origin MPI_Put 50 write 53)
cb_good(put cb_rma put --stdout-regex "rank 0: 1 4 5" --stdout-regex "rank 1: 1 4 0")
cb_bad(rput_flush cb_rma rput_flush "MPI-4.1 §12.3, §12.3.5" 0 "wrote to" 4 origin MPI_Rput 59 write 61)
cb_good(rput_flush cb_rma rput_flush --stdout-regex "rank 0: 1 4 5" --stdout-regex "rank 1: 1 4 0")
cb_bad(rget cb_rma rget "MPI-4.1 §12.3, §12.3.5" 0 read 8 origin MPI_Rget 68 read 69)
cb_good(rget cb_rma rget --stdout-regex "rank 0: 100 103 5")

# Partitioned communication (MPI-4.1 §4.2.2): a send partition from its
# MPI_Pready, a receive partition from MPI_Start until MPI_Parrived reports
# it; each error names the partition and the call that guarded it. The
# twins write a send partition before its MPI_Pready and read a received
# partition that MPI_Parrived reported.
progsim_test_program(cb_part cb_part.c)
cb_bad(part_send cb_part send "MPI-4.1 §4.2.2" 0 "wrote to" "0 \\(partition 0\\)" send
       "MPI_Psend_init marked ready by MPI_Pready" 33 write 36)
cb_good(part_send cb_part send --stdout-regex "rank 0: 5 2 4 3" --stdout-regex "rank 1: 1 2 4 0")
cb_bad(part_recv cb_part recv "MPI-4.1 §4.2.2" 1 read "8 \\(partition 1\\)" receive "MPI_Precv_init started by MPI_Start"
       46 read 51)
cb_good(part_recv cb_part recv --stdout-regex "rank 1: 1 2 4 1")
