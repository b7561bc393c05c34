#!/usr/bin/env bash
# wrappers.man_pages: the man pages of progsim, progsim-mpiexec, progsim-cc
# and progsim-cxx are in the build tree (share/man/man1), render with
# `man -l` (groff without warnings), and say what --help says: every option
# of each --help is on its page.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
MAN_DIR=$BUILD/share/man/man1
export LC_ALL=C.UTF-8 MANWIDTH=80

# render PAGE: the page as a terminal shows it (man, else groff).
render() {
  if command -v man >/dev/null; then
    man -l "$1"
  else
    groff -man -Tutf8 "$1"
  fi
}

# check_page NAME TITLE_TEXT HELP_COMMAND...
check_page() {
  local name=$1 text=$2
  shift 2
  local page=$MAN_DIR/$name.1
  [ -f "$page" ] || fail "$page was not generated"
  must "$name-render" render "$page"
  head -12 "$OUT"
  # Justified text: spaces squeezed before looking for words.
  tr -s ' ' <"$OUT" >"$SCRATCH/$name-squeezed.txt"
  local heading
  for heading in "${name^^}(1)" NAME SYNOPSIS "$name - $text"; do
    expect_file_contains "$SCRATCH/$name-squeezed.txt" "$heading" "man -l $name.1"
  done
  must "$name-warnings" groff -man -Tutf8 -ww -z "$page"
  [ ! -s "$ERR" ] || { show_output; fail "groff warns about $name.1"; }
  # Every option named from the help's first "...options:" heading on.
  must "$name-help" "$@"
  local option count=0
  while read -r option; do
    grep -qF -- "$option" "$SCRATCH/$name-render.out" || fail "$name.1 does not mention $option (its --help does)"
    count=$((count + 1))
  done < <(sed -n '/ptions:$/,$p' "$OUT" | grep -oE -- '(^|[ ,(])--?[A-Za-z][A-Za-z0-9-]*' | sed -E 's/^[ ,(]//' | sort -u)
  [ "$count" -ge 3 ] || fail "found only $count options in $* --help"
  note "$name.1: renders, $count options of its --help"
}

check_page progsim "deterministic simulation of MPI programs" "$BIN/progsim" --help
check_page progsim-mpiexec "mpiexec for MPI programs built with progsim-cc" "$BIN/progsim-mpiexec" --help
check_page progsim-cc "compile and link C MPI programs for progsim" "$BIN/progsim-cc" --help
check_page progsim-cxx "compile and link C++ MPI programs for progsim" "$BIN/progsim-cxx" --help
# progsim.1 has a section per subcommand, each from its own --help.
for sub in run compare replay examples; do
  expect_file_contains "$SCRATCH/progsim-render.out" "PROGSIM ${sub^^}" "progsim.1"
done
must run-help "$BIN/progsim" run --help
for option in --display-map --oversubscribe --map-by PROGSIM_CFG; do
  expect_file_contains "$SCRATCH/progsim-render.out" "$option" "progsim.1 (section PROGSIM RUN)"
done
note "PASS"
