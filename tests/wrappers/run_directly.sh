#!/usr/bin/env bash
# wrappers.run_directly: a program built with progsim-cc, run directly
# (./program, as autoconf's configure runs ./conftest), runs as a one-rank
# progsim run: its output, its files, its own exit status; a crash is
# progsim's crash report; without progsim in reach, a message saying how to
# run it and status 2. Never a segfault of the program itself.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
setup "$@"
cd "$SCRATCH"

# What autoconf's "checking whether we are cross compiling" runs.
cat >conftest.c <<'C'
#include <stdio.h>
int main(void)
{
  FILE *f = fopen("conftest.out", "w");
  return ferror(f) || fclose(f) != 0;
}
C
cat >status.c <<'C'
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  printf("rank %d of %d, %d arguments, first: %s\n", rank, size, argc - 1, argc > 1 ? argv[1] : "none");
  MPI_Finalize();
  return argc > 1 ? atoi(argv[1]) : 0;
}
C
cat >crash.c <<'C'
#include <mpi.h>
int main(int argc, char **argv)
{
  MPI_Init(&argc, &argv);
  volatile int *p = 0;
  *p = 1;
  MPI_Finalize();
  return 0;
}
C
for p in conftest status crash; do
  must build_$p "$BIN/progsim-cc" $p.c -o $p
done
grep -q 'Requesting program interpreter' <<<"$(readelf -l conftest)" || fail "conftest has no program interpreter"

note "./conftest (no MPI at all): status 0, its file written"
must conftest ./conftest
[ -f conftest.out ] || fail "./conftest did not write conftest.out"

note "./status: one rank, the arguments, the program's exit status"
must status0 ./status
expect_lines "$OUT" "rank 0 of 1, 0 arguments, first: none"
run status3 ./status 3 more
[ "$RC" = 3 ] || { show_output; fail "./status 3 exited with $RC, expected the program's own 3"; }
expect_lines "$OUT" "rank 0 of 1, 2 arguments, first: 3"

note "./crash: progsim's crash report, status 139"
run crash ./crash
[ "$RC" = 139 ] || { show_output; fail "./crash exited with $RC, expected 139"; }
expect_file_contains "$ERR" "rank 0 crashed: SIGSEGV (segmentation fault)" "the crash report"
expect_file_contains "$ERR" "at main (crash.c:6)" "the crash report"

note "progsim out of reach: how to run it, status 2"
mkdir -p elsewhere
cp -L "$BUILD/lib/libprogsim.so.0" elsewhere/
run not_found env LD_LIBRARY_PATH="$SCRATCH/elsewhere" PATH=/nonexistent ./status
[ "$RC" = 2 ] || { show_output; fail "without progsim, ./status exited with $RC, expected 2"; }
expect_file_contains "$ERR" "built with progsim-cc for the progsim MPI simulator" "the message"
expect_file_contains "$ERR" "progsim run -n 1 $SCRATCH/status" "the message"

note "no temporary files left"
leftover=$(ls -A "$TMPDIR")
[ -z "$leftover" ] || fail "files left in TMPDIR: $leftover"

note "PASS"
