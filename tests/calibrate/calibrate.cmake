# progsim calibrate (issue 22) and the per-transport model parameters it
# fits. The fit runs on probe lines recorded on this project's VM with
# Debian's MPICH and Open MPI (no MPI needed here); the agreement tests run
# the probes in progsim with the fitted files, the acceptance check itself.
set(calibrate_dir ${CMAKE_CURRENT_SOURCE_DIR}/calibrate)
set(calibrate_out ${CMAKE_BINARY_DIR}/tests/calibrate)
file(MAKE_DIRECTORY ${calibrate_out})
set(check_json ${Python3_EXECUTABLE} ${calibrate_dir}/check_json.py)

# The fitted values (tolerances: the least-squares values to 1%; sizes exact).
add_test(NAME calibrate.fit.mpich
  COMMAND sh -c "\"$0\" calibrate --recorded \"$1\" --out \"$2\" --no-check && shift 3 && \"$@\""
          ${PROGSIM_CLI} ${calibrate_dir}/mpich-4.0.2.txt ${calibrate_out}/fit-mpich
          ${check_json} ${calibrate_out}/fit-mpich.json
          /fit/0/transport=\"shm\" /fit/0/latency_s=~2.34e-7%1 /fit/0/bandwidth_Bps=~2.21e9%1
          /fit/0/eager_threshold=8192 "/fit/0/blocking_sizes=[16384, 32768, 65536, 131072, 262144, 1048576]"
          /fit/0/rendezvous=\"push\" /fit/0/rendezvous_buffered=\"push\" /fit/0/async_progress=false
          "/fit/0/deadlock_sizes=[16384, 65536, 1048576]"
          /cfg/eager-threshold-shm=8192 /cfg/rendezvous-shm=\"push\")
add_test(NAME calibrate.fit.openmpi
  COMMAND sh -c "\"$0\" calibrate --recorded \"$1\" --out \"$2\" --no-check && shift 3 && \"$@\""
          ${PROGSIM_CLI} ${calibrate_dir}/openmpi-4.1.4.txt ${calibrate_out}/fit-openmpi
          ${check_json} ${calibrate_out}/fit-openmpi.json
          /fit/0/latency_s=~4.01e-7%1 /fit/0/bandwidth_Bps=~1.40e9%1
          /fit/0/eager_threshold=2048 /fit/0/rendezvous=\"pull\" /fit/0/rendezvous_buffered=\"push\"
          "/fit/0/deadlock_sizes=[8192, 16384, 65536, 1048576]"
          /cfg/eager-threshold-shm=2048 /cfg/rendezvous-shm=\"pull\" /cfg/rendezvous-buffered=\"push\")
# The acceptance: progsim with the fitted files agrees with the real MPI on
# every probe (blocking and deadlock sizes, half round trips within 20%).
foreach(mpi mpich-4.0.2 openmpi-4.1.4)
  add_test(NAME calibrate.agreement.${mpi}
    COMMAND sh -c "\"$0\" calibrate --recorded \"$1\" --out \"$2\" && shift 3 && \"$@\""
            ${PROGSIM_CLI} ${calibrate_dir}/${mpi}.txt ${calibrate_out}/agree-${mpi}
            ${check_json} ${calibrate_out}/agree-${mpi}.json /agrees=true)
endforeach()
# Asynchronous progress (--async-progress ENV=VALUE): MPICH's progress=async
# lines (MPIR_CVAR_ASYNC_PROGRESS=1, measured on a loaded VM) leave the plain
# fit as it was and give the measures the thread policy is fitted to; with
# the progsim runs, the fitted thread-interval/-poll-cost/-lock-cost make the
# completion delay and the half round trip agree (the search is
# deterministic: two fits, byte-identical files but for the platform's name). The twin whose async
# overlap shows no progress during the compute phase is not fitted, and
# disagrees (exit 1).
add_test(NAME calibrate.fit.mpich_async
  COMMAND sh -c "\"$0\" calibrate --recorded \"$1\" --out \"$2\" --no-check && shift 3 && \"$@\""
          ${PROGSIM_CLI} ${calibrate_dir}/mpich-4.0.2-async.txt ${calibrate_out}/fit-mpich-async
          ${check_json} ${calibrate_out}/fit-mpich-async.json
          /fit/0/latency_s=~1.755e-7%1 /fit/0/eager_threshold=8192 /fit/0/async_progress=false
          /cfg/rendezvous-shm=\"push\" /async_progress/real/provided=3 /async_progress/real/async_progress=true
          /async_progress/real/completion_s=~1.205e-2%1 /async_progress/real/transfer_s=~5.983e-3%1
          /async_progress/real/delay_s=~6.069e-3%1 /async_progress/real/half_rtt_small_s=~1.518e-4%1
          /async_progress/real/cpu_fraction=~0.8662%1)
# The fitted thread parameters are pinned (the fit is deterministic). They
# moved when the idle progress thread stopped sleeping between a chunk's
# arrival and its next poll (it idle-polls until then, sharing the rank's
# core): same polling fraction (0.866, the real thread's CPU fraction), a
# 26% longer interval; the agreement is unchanged.
add_test(NAME calibrate.agreement.mpich-4.0.2-async
  COMMAND sh -c "\"$0\" calibrate --recorded \"$1\" --out \"$2\" && \"$0\" calibrate --recorded \"$1\" --out \"$2\"-again >/dev/null && grep -v '\"platform\"' \"$2\".json > \"$2\".1 && grep -v '\"platform\"' \"$2\"-again.json > \"$2\".2 && cmp \"$2\".1 \"$2\".2 && shift 3 && \"$@\""
          ${PROGSIM_CLI} ${calibrate_dir}/mpich-4.0.2-async.txt ${calibrate_out}/agree-mpich-async
          ${check_json} ${calibrate_out}/agree-mpich-async.json /agrees=true
          "/agreement/5/probe=\"async mode: progress while computing\"" /agreement/5/agrees=true
          /cfg/thread-interval=~4.759e-3%1 /cfg/thread-poll-cost=~4.122e-3%1 /cfg/thread-lock-cost=~5.83e-5%1
          /async_progress/simulated/async_progress=true /async_progress/simulated/delay_s=~6.07e-3%20
          /async_progress/simulated/half_rtt_small_s=~1.518e-4%20
          "/agreement/6/probe=\"async mode: completion delay\"" /agreement/6/agrees=true
          "/agreement/7/probe=\"async mode: half round trip, 0 bytes\"" /agreement/7/agrees=true)
add_test(NAME calibrate.agreement.mpich-4.0.2-async-none
  COMMAND sh -c "sed 's/recv_side_send_time=1.205225000e-02/recv_side_send_time=3.6e-02/' \"$1\" > \"$2\".txt && \"$0\" calibrate --recorded \"$2\".txt --out \"$2\" > \"$2\".log; test $? -eq 1 && grep 'the MPI showed no asynchronous progress with recorded: the thread policy is not fitted' \"$2\".log && shift 2 && \"$@\""
          ${PROGSIM_CLI} ${calibrate_dir}/mpich-4.0.2-async.txt ${calibrate_out}/agree-mpich-async-none
          ${check_json} ${calibrate_out}/agree-mpich-async-none.json /agrees=false
          /async_progress/real/async_progress=false "/agreement/5/probe=\"async mode: progress while computing\""
          /agreement/5/agrees=false "/agreement/5/progsim=\"not fitted\"" /agreement/6=absent)
add_test(NAME calibrate.async_usage COMMAND ${PROGSIM_CLI} calibrate --mpicc mpicc --mpirun mpirun --async-progress 1)
set_tests_properties(calibrate.async_usage PROPERTIES
  PASS_REGULAR_EXPRESSION "--async-progress '1': expected ENV=VALUE \\(MPIR_CVAR_ASYNC_PROGRESS=1\\)")
add_test(NAME calibrate.async_recorded_refuses
  COMMAND ${PROGSIM_CLI} calibrate --recorded ${calibrate_dir}/mpich-4.0.2.txt --async-progress A=1)
set_tests_properties(calibrate.async_recorded_refuses PROPERTIES PASS_REGULAR_EXPRESSION "it takes no .*--async-progress")
add_test(NAME calibrate.usage COMMAND ${PROGSIM_CLI} calibrate --mpicc mpicc)
set_tests_properties(calibrate.usage PROPERTIES
  PASS_REGULAR_EXPRESSION "give --mpicc and --mpirun \\(or --recorded FILE\\)")
add_test(NAME calibrate.recorded_empty COMMAND ${PROGSIM_CLI} calibrate --recorded ${calibrate_dir}/calibrate.cmake)
set_tests_properties(calibrate.recorded_empty PROPERTIES PASS_REGULAR_EXPRESSION "no probe lines")
# A loaded machine (load injected: PROGSIM_CALIBRATE_LOAD=LOAD,CPUS): refused
# with --require-quiet before anything runs, warned about without it; the
# quiet twin (load 0.4 on 2 CPUs: within the half CPU tolerated) goes on to build the probe (with 'false': exit 2, no load message).
add_test(NAME calibrate.load.require_quiet
  COMMAND ${PROGSIM_CLI} calibrate --mpicc false --mpirun false --require-quiet --out ${calibrate_out}/load)
add_test(NAME calibrate.load.warning
  COMMAND ${PROGSIM_CLI} calibrate --mpicc false --mpirun false --out ${calibrate_out}/load)
add_test(NAME calibrate.load.quiet
  COMMAND ${PROGSIM_CLI} calibrate --mpicc false --mpirun false --require-quiet --out ${calibrate_out}/load)
add_test(NAME calibrate.load.recorded_refuses
  COMMAND ${PROGSIM_CLI} calibrate --recorded ${calibrate_dir}/mpich-4.0.2.txt --require-quiet)
set_tests_properties(calibrate.load.require_quiet PROPERTIES ENVIRONMENT PROGSIM_CALIBRATE_LOAD=1.5,2
  PASS_REGULAR_EXPRESSION "error: the machine is loaded \\(1-minute load 1.50 \\+ the probes' 2 ranks > 2 online CPUs \\+ 0.5\\): not calibrating \\(--require-quiet\\)")
set_tests_properties(calibrate.load.warning PROPERTIES ENVIRONMENT PROGSIM_CALIBRATE_LOAD=1.5,2
  PASS_REGULAR_EXPRESSION "warning: the machine is loaded .*eager threshold.*rendezvous variant, asynchronous progress.*building the probe program with 'false' failed")
set_tests_properties(calibrate.load.quiet PROPERTIES ENVIRONMENT PROGSIM_CALIBRATE_LOAD=0.4,2
  PASS_REGULAR_EXPRESSION "building the probe program with 'false' failed" FAIL_REGULAR_EXPRESSION "loaded")
set_tests_properties(calibrate.load.recorded_refuses PROPERTIES PASS_REGULAR_EXPRESSION "it takes no .*--require-quiet")
set_tests_properties(calibrate.fit.mpich calibrate.fit.openmpi calibrate.agreement.mpich-4.0.2
  calibrate.agreement.openmpi-4.1.4 calibrate.usage calibrate.recorded_empty calibrate.load.require_quiet
  calibrate.load.warning calibrate.load.quiet calibrate.load.recorded_refuses calibrate.fit.mpich_async
  calibrate.agreement.mpich-4.0.2-async calibrate.agreement.mpich-4.0.2-async-none calibrate.async_usage
  calibrate.async_recorded_refuses PROPERTIES LABELS calibrate)

# Per-transport eager thresholds: both ranks MPI_Send 4 MiB to each other
# first (head_to_head), which completes only if the message goes eagerly.
# The same program and settings complete on one host and deadlock across two,
# or the other way round, under every policy.
foreach(policy weak thread offload ideal)
  foreach(case "4194304;0;2;completed" "4194304;0;1;deadlock" "0;4194304;2;deadlock" "0;4194304;1;completed")
    list(GET case 0 shm)
    list(GET case 1 net)
    list(GET case 2 per_node)
    list(GET case 3 outcome)
    progsim_program_test(calibrate.transport.shm${shm}_net${net}_per_node${per_node}.${policy} PROGRAM head_to_head
      EXPECT --expect-outcome ${outcome} --twice
      RUN -n 2 --ranks-per-node ${per_node} --progress ${policy}
          --cfg eager-threshold-shm=${shm} --cfg eager-threshold-network=${net})
  endforeach()
endforeach()
# eager-threshold stays the default of both transports.
progsim_program_test(calibrate.transport.default_follows_eager_threshold PROGRAM head_to_head
  EXPECT --expect-outcome completed RUN -n 2 --ranks-per-node 1 --cfg eager-threshold=4194304)

# --params FILE: its cfg settings apply; --cfg on the command line wins
# wherever it is given; a file without a "cfg" object is refused.
progsim_program_test(calibrate.params.file PROGRAM head_to_head
  EXPECT --expect-outcome completed --check /parameters/eager-threshold-shm=4194304
         --check /parameters/eager-threshold-network=0
  RUN -n 2 --ranks-per-node 2 --params ${calibrate_dir}/transport-thresholds.json)
progsim_program_test(calibrate.params.file_network PROGRAM head_to_head
  EXPECT --expect-outcome deadlock
  RUN -n 2 --ranks-per-node 1 --params ${calibrate_dir}/transport-thresholds.json)
progsim_program_test(calibrate.params.cfg_after_wins PROGRAM head_to_head
  EXPECT --expect-outcome deadlock --check /parameters/eager-threshold-shm=0
  RUN -n 2 --ranks-per-node 2 --params ${calibrate_dir}/transport-thresholds.json --cfg eager-threshold-shm=0)
progsim_program_test(calibrate.params.cfg_before_wins PROGRAM head_to_head
  EXPECT --expect-outcome deadlock --check /parameters/eager-threshold-shm=0
  RUN -n 2 --ranks-per-node 2 --cfg eager-threshold-shm=0 --params ${calibrate_dir}/transport-thresholds.json)
progsim_program_test(calibrate.params.not_params PROGRAM head_to_head
  EXPECT --expect-exit 2 --stderr-regex "--params .*: expected a JSON object with a \"cfg\" object"
  RUN -n 2 --params ${calibrate_dir}/check_json.py)
progsim_program_test(calibrate.params.missing PROGRAM head_to_head
  EXPECT --expect-exit 2 --stderr-regex "--params /nonexistent.json: cannot read the file"
  RUN -n 2 --params /nonexistent.json)
