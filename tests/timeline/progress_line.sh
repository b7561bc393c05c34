#!/bin/bash
# The progress line of long runs (sim/ProgressLine.hpp): shown on a terminal
# (a pseudo-terminal from script(1)), erased before the program's output,
# absent when stderr is a pipe or PROGSIM_PROGRESS_LINE=0.
# Usage: progress_line.sh PROGSIM PROGRAM
set -u
progsim=$1 program=$2
fail() { echo "FAIL: $*"; exit 1; }
command -v script >/dev/null || { echo "no script(1): skipped"; exit 77; }

# The line appears after 1 s of host time: the terminal run must last
# longer than that on any machine (100,000 allreduces took 0.87 s once
# messages stopped costing actor switches), so it makes 500,000 (about 4 s).
on_tty=$(script -qec "$progsim run -n 2 $program 500000" /dev/null | tr '\r' '\n')
grep -qE '^.\[Kprogsim: t=[0-9.]+ s simulated; 2 ranks: [0-2] finished, [0-2] blocked, 0 polling; [0-9]+ events/s$' \
  <<<"$on_tty" || fail "no progress line on a terminal: $on_tty"
grep -qE '^.\[Kdone 1$' <<<"$on_tty" || fail "the line is not erased before the program's output: $on_tty"

piped=$("$progsim" run -n 2 "$program" 2>&1)
[ "$piped" = "done 1" ] || fail "output to a pipe is not only the program's: $piped"

off=$(PROGSIM_PROGRESS_LINE=0 script -qec "$progsim run -n 2 $program" /dev/null | tr -d '\r')
[ "$off" = "done 1" ] || fail "PROGSIM_PROGRESS_LINE=0 still shows it: $off"
echo "ok"
