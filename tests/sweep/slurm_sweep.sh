#!/usr/bin/env bash
# sweep.slurm (issue 22): the acceptance sweep (2 programs x 4 policies x 3
# eager thresholds) run locally and as a Slurm job array on a real
# single-node Slurm, started here on localhost, give byte-identical
# results.csv and results.json. The array is throttled (--array-limit 1):
# its script says --array=0-23%1, Slurm reports ArrayTaskThrottle=1, and no
# two tasks are seen running at once (unthrottled, the node's 2 CPUs run two).
#
# usage: slurm_sweep.sh PROGSIM SOURCE_DIR
# Starts munged, slurmctld and slurmd from Debian's munge and slurm-wlm in
# the foreground (-F/-D) with a generated slurm.conf, key, sockets, state
# and spool directories in a temporary directory; stops exactly those
# daemons (by PID) at the end. The daemons run as the current user
# (SlurmUser/SlurmdUser): as root here and in CI. slurmd runs jobs as their
# submitter only as root, so elsewhere the test skips (exit 77, with the
# reason), as it does when the packages are missing.
set -uo pipefail
progsim=$1
source_dir=$2
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for tool in munged slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
  command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install slurm-wlm munge; tools/install-deps.sh)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd starts jobs as their user only as root (here: uid $(id -u))"

tmp=$(mktemp -d /tmp/progsim-slurm.XXXXXX)
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
show_logs() {
  for f in "$tmp"/*.log "$tmp"/out-slurm/slurm/*; do
    [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
  done
}

# munge: its own key, socket and files; --force: the key and files are the
# current user's, not the munge user's.
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge.key"
mkdir -m 755 "$tmp/munge"
munged -F --force --key-file="$tmp/munge.key" --socket="$tmp/munge/socket" --pid-file="$tmp/munge/pid" \
  --log-file="$tmp/munged.log" --seed-file="$tmp/munge/seed" >"$tmp/munged.stdout.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/socket" ] && break; sleep 0.1; done
[ -S "$tmp/munge/socket" ] || { show_logs; fail "munged did not start"; }

# Two free TCP ports for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
user=$(id -un)
node=$(hostname -s)
# The node as slurmd sees it (CPUs, sockets, cores, memory), so that it registers.
node_line=$(slurmd -C 2>/dev/null | head -1 | sed 's/ *UpTime=.*//')
[ -n "$node_line" ] || node_line="NodeName=$node CPUs=$(nproc)"
mkdir -p "$tmp/state" "$tmp/spool"
cat >"$tmp/slurm.conf" <<CONF
ClusterName=progsimtest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/slurmctld.stdout.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.stdout.log" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 300); do
  state=$(sinfo -h -o %T 2>/dev/null | head -1)
  [ "$state" = idle ] && break
  sleep 0.2
done
[ "$state" = idle ] || { show_logs; skip "the local Slurm did not come up (node state '$state'; logs above)"; }
echo "slurm up: $(sinfo -h -o '%P %D %T %C')"

cat >"$tmp/spec.json" <<SPEC
{
  "programs": [
    {"name": "head_to_head", "source": "$source_dir/examples/unsafe_send_order/unsafe_send_order.c"},
    {"name": "bsend_sleep", "source": "$source_dir/examples/bsend_then_sleep/bsend_sleep.c"}
  ],
  "ranks": [2],
  "policies": ["weak", "thread", "offload", "ideal"],
  "cfg": {"eager-threshold": [0, 65536, 8388608]}
}
SPEC
"$progsim" sweep --jobs 2 --output "$tmp/out-local" "$tmp/spec.json" || fail "the local sweep failed"
# Watch the array while it runs: the most tasks running at once, and the
# throttle Slurm recorded.
(
  most=0
  while [ ! -e "$tmp/sweep-done" ]; do
    running=$(squeue -h -r -t RUNNING -o %i 2>/dev/null | wc -l)
    [ "$running" -gt "$most" ] && most=$running
    scontrol show job 2>/dev/null | grep -o 'ArrayTaskThrottle=[0-9]*' | head -1 >>"$tmp/throttle"
    sleep 0.1
  done
  echo "$most" >"$tmp/most-running"
) &
watcher=$!
"$progsim" sweep --slurm --array-limit 1 --wait --sbatch-args "--time=10" --output "$tmp/out-slurm" "$tmp/spec.json" \
  >"$tmp/sweep-slurm.log" 2>&1
status=$?
touch "$tmp/sweep-done"
wait "$watcher"
cat "$tmp/sweep-slurm.log"
[ $status -eq 0 ] || { show_logs; fail "the Slurm sweep exited $status"; }
grep -q "24 points submitted as the Slurm job array" "$tmp/sweep-slurm.log" || fail "the sweep did not submit 24 points"
tasks=$(ls "$tmp/out-slurm/slurm/" | grep -c '^task-.*\.out$')
[ "$tasks" -eq 24 ] || { show_logs; fail "$tasks Slurm task logs, expected 24 (one per point)"; }
grep -qx '#SBATCH --array=0-23%1' "$tmp/out-slurm/slurm/sweep.sbatch" ||
  fail "the batch script has no '#SBATCH --array=0-23%1': $(grep array "$tmp/out-slurm/slurm/sweep.sbatch")"
grep -q 'ArrayTaskThrottle=1' "$tmp/throttle" || fail "Slurm did not report ArrayTaskThrottle=1 ($(sort -u "$tmp/throttle"))"
most=$(cat "$tmp/most-running")
[ "$most" -eq 1 ] || fail "$most array tasks were seen running at once, expected 1 (--array-limit 1)"
for f in results.csv results.json; do
  cmp "$tmp/out-local/$f" "$tmp/out-slurm/$f" || fail "$f differs between the local and the Slurm sweep"
done
rows=$(($(wc -l <"$tmp/out-slurm/results.csv") - 1))
[ "$rows" -eq 24 ] || fail "$rows rows, expected 24"
# Resubmitting a complete sweep submits nothing.
"$progsim" sweep --slurm --output "$tmp/out-slurm" "$tmp/spec.json" 2>&1 | grep -q "nothing to submit" ||
  fail "a complete sweep was submitted again"
echo "ok: the local and the Slurm sweep (throttled to 1 task at once) give byte-identical results.csv and results.json (24 rows)"
