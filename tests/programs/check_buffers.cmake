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
