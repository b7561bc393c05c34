# Sourced by the tests that run one program on an optimized and an
# unoptimized path (transport/listed_transfers.sh,
# progress/wake_every_completion.sh).
#   same_two_runs WORK A STATUS_A B STATUS_B
# compares the exit statuses and the stdout, stderr and report of runs A and
# B (WORK/A.out, .err, .json), with their paths normalized (the report's path
# is in the report and may be in the output). These programs do not fail, so
# a status of 70 (internal error) or more is progsim's own failure, which
# both paths could share. Prints what differs; returns 0 when nothing does.
same_two_runs() {
  local work=$1 a=$2 status_a=$3 b=$4 status_b=$5 f ok=0
  [ "$status_a" = "$status_b" ] || { echo "exit status: $a $status_a, $b $status_b"; ok=1; }
  [ "$status_b" -lt 70 ] || { echo "progsim failed (exit $status_b)"; ok=1; }
  for f in out err json; do
    if ! cmp -s <(sed "s|$work/$a|WORK|g" "$work/$a.$f") <(sed "s|$work/$b|WORK|g" "$work/$b.$f"); then
      echo "$f differs:"; diff <(sed "s|$work/$a|WORK|g" "$work/$a.$f") <(sed "s|$work/$b|WORK|g" "$work/$b.$f") | head -20
      ok=1
    fi
  done
  return $ok
}
