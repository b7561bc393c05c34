#!/usr/bin/env bash
# Byte-for-byte evidence that a change did not change behaviour: runs every
# example of the teaching catalogue (examples/*/example.json) under every
# progress policy and keeps everything a run writes, then compares two such
# captures.
#
#   tools/compare-examples-output.sh capture OUTDIR [BUILD_DIR]
#       For each example NAME and policy P: OUTDIR/NAME/P.{stdout,stderr,
#       status,report.json,timeline.json}, from `progsim run` with the
#       example's ranks and run_options; and OUTDIR/NAME/examples-run.*
#       from `progsim examples run NAME` (the expected-outcome check).
#   tools/compare-examples-output.sh compare DIR_A DIR_B
#       Lists every file that differs or exists on one side only; exit
#       status 0 when the two captures are byte-identical, 1 otherwise.
#
# Runs use fixed paths (the program at $TMPDIR/progsim-examples-capture/NAME,
# the outputs in the current folder of a fixed scratch folder), so that two
# captures of the same behaviour are identical whatever OUTDIR is, and the
# paths of the build and source trees are written as <build> and <tree>.
set -euo pipefail

usage()
{
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# The policies of the build's catalogue: compare's default --policies.
policies_of()
{
  "$1" compare --help | sed -n 's/.*comma-separated policies (default \([^)]*\)).*/\1/p' | tr , ' '
}

capture()
{
  local out=$1 build=${2:-build}
  local progsim cc scratch
  progsim=$(cd "$build/bin" && pwd)/progsim
  [[ -x $progsim ]] || { echo "no $progsim (build first)" >&2; exit 2; }
  local policies
  read -ra policies <<<"$(policies_of "$progsim")"
  ((${#policies[@]})) || { echo "$progsim compare --help names no policy" >&2; exit 2; }
  local examples
  examples=$(cd "$(dirname "$0")/../examples" && pwd)
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  scratch=${TMPDIR:-/tmp}/progsim-examples-capture
  rm -rf "$scratch"
  mkdir -p "$scratch/run"
  for json in "$examples"/*/example.json; do
    local folder name source ranks
    folder=$(dirname "$json")
    name=$(basename "$folder")
    source=$folder/$(jq -r '.source' "$json")
    ranks=$(jq -r '.ranks // 2' "$json")
    mapfile -t options < <(jq -r '.run_options // [] | .[]' "$json")
    cc=$(dirname "$progsim")/progsim-cc
    [[ $source == *.cpp ]] && cc=$(dirname "$progsim")/progsim-cxx
    "$cc" -O1 "$source" -o "$scratch/$name"
    mkdir -p "$out/$name"
    for policy in "${policies[@]}"; do
      local status=0
      (cd "$scratch/run" && rm -f report.json timeline.json &&
        "$progsim" run -n "$ranks" "${options[@]}" --progress "$policy" --report report.json \
          --timeline timeline.json "$scratch/$name" >"$out/$name/$policy.stdout" 2>"$out/$name/$policy.stderr") ||
        status=$?
      echo "$status" >"$out/$name/$policy.status"
      for f in report.json timeline.json; do
        [[ -f $scratch/run/$f ]] && mv "$scratch/run/$f" "$out/$name/$policy.$f"
      done
    done
    local status=0
    (cd "$scratch/run" && "$progsim" examples run "$name" >"$out/$name/examples-run.stdout" \
      2>"$out/$name/examples-run.stderr") || status=$?
    echo "$status" >"$out/$name/examples-run.status"
    echo "$name: captured" >&2
  done
  rm -rf "$scratch"
  # Reports and 'examples run' name files by absolute path: the build and
  # source trees are written as <build> and <tree>, so that captures of two
  # checkouts compare equal when they behave the same.
  local tree bin
  tree=$(cd "$examples/.." && pwd)
  bin=$(dirname "$progsim")
  find "$out" -type f -exec sed -i -e "s|${bin%/bin}|<build>|g" -e "s|$tree|<tree>|g" {} +
}

compare()
{
  local a=$1 b=$2
  [[ -d $a && -d $b ]] || { echo "compare needs two capture folders" >&2; exit 2; }
  local files
  files=$( (cd "$a" && find . -type f; cd "$b" && find . -type f) | LC_ALL=C sort -u)
  [[ -n $files ]] || { echo "both captures are empty" >&2; exit 2; }
  local differ=0 same=0
  while IFS= read -r f; do
    if [[ ! -f $a/$f ]]; then
      echo "only in $b: ${f#./}"; differ=$((differ + 1))
    elif [[ ! -f $b/$f ]]; then
      echo "only in $a: ${f#./}"; differ=$((differ + 1))
    elif ! cmp -s "$a/$f" "$b/$f"; then
      echo "differs: ${f#./}"; differ=$((differ + 1))
    else
      same=$((same + 1))
    fi
  done <<<"$files"
  if ((differ)); then
    echo "$differ file(s) differ, $same identical"
    return 1
  fi
  echo "byte-identical: $same files"
}

case ${1:-} in
  capture) [[ $# -ge 2 && $# -le 3 ]] || usage; capture "$2" "${3:-build}" ;;
  compare) [[ $# -eq 3 ]] || usage; compare "$2" "$3" ;;
  *) usage ;;
esac
