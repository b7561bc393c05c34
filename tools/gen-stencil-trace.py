#!/usr/bin/env python3
"""Writes a synthetic progsim trace (docs/traces.md) of a 1-D stencil with an
allreduce per iteration: each rank exchanges halos with both neighbours
(irecv, irecv, isend, isend), computes, waits for all four, then joins an
8-byte allreduce. One file per rank (DIR/rank-R.jsonl), streamed, so any
number of ranks fits in constant memory.

  gen-stencil-trace.py --ranks 10000 --iterations 10 --out /tmp/stencil/
"""
import argparse
import json
import os


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--halo-bytes", type=int, default=65536)
    parser.add_argument("--compute", type=float, default=1e-4, help="seconds of compute per iteration")
    parser.add_argument("--out", required=True, help="output directory")
    args = parser.parse_args()
    if args.ranks < 2:
        parser.error("--ranks must be at least 2")
    os.makedirs(args.out, exist_ok=True)
    n = args.ranks
    for rank in range(n):
        left, right = (rank - 1) % n, (rank + 1) % n
        lines = [json.dumps({"format": "progsim-trace", "version": 1, "nranks": n, "rank": rank,
                             "recorded_by": "gen-stencil-trace.py"}, separators=(",", ":")),
                 '{"call":"init"}']
        for it in range(args.iterations):
            base = 4 * it
            for k, (call, peer) in enumerate((("irecv", left), ("irecv", right), ("isend", right), ("isend", left))):
                tag = 0 if peer == left and call == "irecv" or peer == right and call == "isend" else 1
                lines.append('{"call":"%s","peer":%d,"tag":%d,"comm":0,"bytes":%d,"req":%d}'
                             % (call, peer, tag, args.halo_bytes, base + k))
            lines.append('{"call":"compute","s":%r}' % args.compute)
            lines.append('{"call":"waitall","reqs":[%d,%d,%d,%d]}' % (base, base + 1, base + 2, base + 3))
            lines.append('{"call":"allreduce","comm":0,"count":1,"dt":"MPI_DOUBLE","op":"MPI_SUM"}')
        lines.append('{"call":"finalize"}')
        with open(os.path.join(args.out, "rank-%d.jsonl" % rank), "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
