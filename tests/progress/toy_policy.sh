#!/usr/bin/env bash
# progress.toy_policy: adding a progress policy touches only mpi_model/progress/
# (docs/design/progress.md). Applies docs/design/lazy-policy.patch to a copy of
# the source tree, checks that every path it touches is in mpi_model/progress/,
# builds progsim there and runs the test_loop example under the new policy:
# its --cfg parameter, its report field, its compare column and its place in
# the help texts must all be there, from its one file and registration line.
#
# usage: toy_policy.sh SOURCE_DIR WORK_DIR [COMPILER_LAUNCHER]
# The copy's build folder sits in the copy as build/ sits in the source tree,
# so that a shared ccache (base_dir) serves its unchanged files. Exit 77
# (skipped) without git.
set -euo pipefail
src=$(cd "$1" && pwd)
work=$2
launcher=${3:-}
patch=$src/docs/design/lazy-policy.patch
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v git >/dev/null || { echo "no git: skipped" >&2; exit 77; }

rm -rf "$work"
mkdir -p "$work/src"
work=$(cd "$work" && pwd)
copy=$work/src
# The tree as it is (tracked and new files), without any build folder.
(cd "$src" && git ls-files -z --cached --others --exclude-standard) |
  (cd "$src" && while IFS= read -r -d '' f; do [[ -f $f ]] && printf '%s\0' "$f"; done) |
  (cd "$src" && xargs -0 cp --parents -t "$copy")

# The change: only mpi_model/progress/.
git -C "$copy" init -q
git -C "$copy" add -A
git -C "$copy" -c user.name=test -c user.email=test@example.invalid commit -q -m "tree"
git -C "$copy" apply --check "$patch" || fail "the patch does not apply to this tree"
outside=$(git -C "$copy" apply --numstat "$patch" | awk '$3 !~ /^mpi_model\/progress\// {print $3}')
[[ -z $outside ]] || fail "the patch touches files outside mpi_model/progress/: $outside"
git -C "$copy" apply "$patch"
git -C "$copy" add -A
echo "the change (git diff --stat):"
git -C "$copy" diff --cached --stat

options=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPROGSIM_WERROR=ON -DBUILD_TESTING=OFF)
[[ -z $launcher ]] || options+=(-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" -DCMAKE_C_COMPILER_LAUNCHER="$launcher")
cmake -S "$copy" -B "$copy/build" "${options[@]}" >"$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$copy/build" --target progsim_cli -j2 >"$work/build.log" 2>&1 || { tail -50 "$work/build.log"; fail "build"; }
bin=$copy/build/bin

# The policy is selectable and described, with its parameter.
"$bin/progsim" run --help | grep -q "^ *lazy: toy: call-driven" || fail "run --help does not list lazy"
"$bin/progsim" compare --help | grep -q "default weak,thread,offload,ideal,lazy" || fail "compare's default policies"
"$bin/progsim" compare --help | grep -q "skipped tests \[lazy_skipped_tests\]" || fail "compare --help lacks lazy's column"
"$bin/progsim" run --cfg help | grep -q "^  lazy-test-interval (default 10 calls" || fail "--cfg help lacks lazy-test-interval"

# A program under it: rank 0's MPI_Test loop progresses only every 10th test,
# so its rendezvous send completes later than under weak progress.
"$bin/progsim-cc" -O1 "$src/examples/test_loop/test_loop.c" -o "$work/test_loop"
cd "$work"
"$bin/progsim" run -n 2 --progress lazy --report lazy.json ./test_loop >lazy.out 2>&1 || fail "run under lazy: $(cat lazy.out)"
"$bin/progsim" compare --policies weak,lazy --csv -n 2 ./test_loop >compare.csv || fail "compare: $(cat compare.csv)"
python3 - "$work" <<'EOF'
import csv, json, sys
work = sys.argv[1]
report = json.load(open(f"{work}/lazy.json"))
def check(ok, what):
    if not ok:
        sys.exit("FAIL: " + what)
check(report["outcome"] == "completed", f"outcome {report['outcome']}")
check(report["parameters"].get("lazy-test-interval") == 10, "lazy-test-interval not in the report's parameters")
skipped = [r.get("lazy_skipped_tests") for r in report["ranks"]]
check(skipped[0] and skipped[0] > 0, f"rank 0 skipped no test: {skipped}")
rows = {row["policy"]: row for row in csv.DictReader(open(f"{work}/compare.csv"))}
check(rows["weak"]["lazy_skipped_tests"] == "0", "weak skipped tests")
check(int(rows["lazy"]["lazy_skipped_tests"]) == sum(skipped), "compare's column is not the sum of the report's")
check(float(rows["lazy"]["simulated_time"]) > float(rows["weak"]["simulated_time"]), "lazy not later than weak")
print("lazy:", rows["lazy"]["simulated_time"], "s, skipped tests", skipped, "; weak:", rows["weak"]["simulated_time"], "s")
EOF
cd / && rm -rf "$work"  # 450 MB; kept when the test fails
echo "PASS"
