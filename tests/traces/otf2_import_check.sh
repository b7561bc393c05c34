#!/bin/bash
# OTF2 import (issue 19): writes the "mix" archive with OTF2's own writer
# (otf2/write_archive.py, 8 ranks), replays it twice under POLICY (the
# reports must be byte-identical) and once with twice the computation, then
# checks in the replay's report:
#  * the MPI calls each rank made, and the bytes the collectives moved;
#  * the application's messages (tags 7 and 9; collectives use their own
#    traffic), exactly: 4 blocking sends r -> r+1 of 1000*(r+1) bytes, tag 7,
#    and a ring of 8 nonblocking 65536-byte messages, tag 9; each even rank's
#    tag-7 message is posted before its tag-9 one (trace order);
#  * the simulated time: each rank computes 6.5 ms between its calls, so the
#    run lasts at least that and at most 3 ms more (communication: a 1 MiB
#    broadcast, an alltoall of 8 x 4 KiB, ...);
#  * --cfg otf2-compute-scale=2 lengthens the run by the 6.5 ms of
#    computation, within 5% (the communication overlapping the computation
#    may end at other times).
#   otf2_import_check.sh PROGSIM PYTHON WORKDIR POLICY
set -u
progsim=$1 python=$2 work=$3 policy=$4
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work"
"$python" "$here/otf2/write_archive.py" "$work/mix" mix || { echo "FAIL: cannot write the archive"; exit 1; }
trace="$work/mix/traces.otf2"
replay() {
  local report=$1
  shift
  "$progsim" replay --progress "$policy" --report "$work/$report" "$@" "$trace" >"$work/$report.out" 2>&1
  local status=$?
  if [ $status != 0 ]; then
    echo "FAIL: progsim replay $* exited with $status"
    cat "$work/$report.out"
    exit 1
  fi
}
replay r1.json
replay r1b.json
replay r2.json --cfg otf2-compute-scale=2
if ! cmp -s "$work/r1.json" "$work/r1b.json"; then
  echo "FAIL: two replays gave different reports"
  exit 1
fi
"$python" - "$work/r1.json" "$work/r2.json" <<'EOF'
import json, sys
one, two = (json.load(open(p)) for p in sys.argv[1:3])
failed = []
def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failed.append(what)
check(one["outcome"] == "completed" and one["nranks"] == 8, "8 ranks, completed: %s, %s" % (one["outcome"], one["nranks"]))
records = one["messages"]["records"]
check(not one["messages"]["records_truncated"], "every message is in the report")
app = [m for m in records if m["tag"] in (7, 9)]
got = sorted((m["source"], m["dest"], m["tag"], m["bytes"]) for m in app)
want = sorted([(r, r + 1, 7, 1000 * (r + 1)) for r in range(0, 8, 2)] + [(r, (r + 1) % 8, 9, 65536) for r in range(8)])
check(got == want, "application messages (source, dest, tag, bytes): %s" % got)
for r in range(0, 8, 2):
    posts = {m["tag"]: m["post_time"] for m in app if m["source"] == r}
    check(posts.get(7, 1) < posts.get(9, 0), "rank %d posts its tag-7 message before its tag-9 one: %s" % (r, posts))
# The calls replayed (MPI_Initialized, before MPI_Init, is not): MPI_Init, the MPI_Comm_split that makes the even ranks'
# communicator, the trace's MPI_Comm_split (a local call), send or receive,
# MPI_Irecv, MPI_Isend, MPI_Waitall, MPI_Allreduce, MPI_Bcast, MPI_Barrier
# (even ranks), MPI_Alltoall, MPI_Comm_rank, MPI_Finalize.
calls = [r["mpi_calls"] for r in one["ranks"]]
check(calls == [13, 12] * 4, "MPI calls per rank: %s" % calls)
# The collectives moved their sizes: at least each rank's 1 MiB of the
# broadcast, 7 x 4 KiB of the alltoall, the allreduce's 512 bytes twice, and
# the point-to-point bytes; at most 1.5 times that (headers, algorithms).
least = 7 * 1048576 + 56 * 4096 + 2 * 7 * 512 + 16000 + 8 * 65536
wire = one["network"]["bytes"]
check(least <= wire <= 1.5 * least, "bytes on the network %d in [%d, 1.5 x that]" % (wire, least))
compute = 6.5e-3
t1, t2 = one["simulated_time"], two["simulated_time"]
check(compute <= t1 <= compute + 3e-3, "simulated time %.6f s in [6.5 ms, 9.5 ms]" % t1)
check(abs((t2 - t1) - compute) <= 0.05 * compute, "scale 2 adds %.6f s (6.5 ms +- 5%%)" % (t2 - t1))
sys.exit(1 if failed else 0)
EOF
