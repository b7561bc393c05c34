#!/bin/bash
# Archives `progsim replay` must refuse (issue 19), written into DIR:
# rma/ and alltoallv/ (valid OTF2, calls replay cannot perform), deadlock/
# (two ranks receiving from each other), many/ (100 ranks), truncated/
# (the "mix" archive with rank 3's event file cut in the middle of a
# record), garbage/ (an anchor file that is not OTF2).
#   write_bad_archives.sh PYTHON DIR
set -eu
python=$1 dir=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir" && mkdir -p "$dir/garbage"
"$python" "$here/write_archive.py" "$dir/rma" rma
"$python" "$here/write_archive.py" "$dir/alltoallv" alltoallv
"$python" "$here/write_archive.py" "$dir/deadlock" deadlock
"$python" "$here/write_archive.py" "$dir/many" many
"$python" "$here/write_archive.py" "$dir/truncated" mix
size=$(stat -c %s "$dir/truncated/traces/3.evt")
truncate -s $((size / 2 + 1)) "$dir/truncated/traces/3.evt"
printf 'this is not an OTF2 anchor file\n' >"$dir/garbage/traces.otf2"
