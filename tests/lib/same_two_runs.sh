# Sourced by the tests that run one program on an optimized and an
# unoptimized path (transport/listed_transfers.sh,
# progress/wake_every_completion.sh, progress/execute_stepwise.sh).
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

# unoptimized_and_counted WORK PROGSIM OLD_VAR COUNT_VAR COUNT_TEXT RUN_ARGS...
# runs `PROGSIM run RUN_ARGS` as WORK/old with OLD_VAR=1 (the unoptimized
# path) and as WORK/new with COUNT_VAR=1, whose stderr line
# "progsim: COUNT_TEXT: N" is taken out of WORK/new.err (the comparison) and
# left in COUNTED (empty when not printed). Sets OLD_STATUS and NEW_STATUS;
# then `same_two_runs WORK old "$OLD_STATUS" new "$NEW_STATUS"` compares them.
unoptimized_and_counted() {
  local work=$1 progsim=$2 old_var=$3 count_var=$4 text=$5
  shift 5
  env "$old_var=1" "$progsim" run --report "$work/old.json" "$@" >"$work/old.out" 2>"$work/old.err"
  OLD_STATUS=$?
  env "$count_var=1" "$progsim" run --report "$work/new.json" "$@" >"$work/new.out" 2>"$work/new.err.raw"
  NEW_STATUS=$?
  grep -v "^progsim: $text: " "$work/new.err.raw" >"$work/new.err"
  COUNTED=$(sed -n "s/^progsim: $text: \([0-9]*\)\$/\1/p" "$work/new.err.raw")
}
