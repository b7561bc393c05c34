#!/usr/bin/env python3
"""A large timeline (64 ranks, 200 allreduces, a 1 s sleep, an 8 MiB
allreduce), in each format, checked by a reader of that format (issue 18).

usage: check_large_timeline.py PROGSIM WORKDIR {chrome|paje} PROGRAM [ARGS...]

chrome  the Chrome trace-event JSON is valid (trace_event_format.py, beside
        this script) and complete (every recorded event is in the file, the
        metadata after the events), and byte-identical across two runs;
        a damaged copy is rejected, so the validator can fail.
paje    pj_dump (Debian package pajeng) reads the Paje file without error
        and finds every rank's states; byte-identical across two runs; a
        copy with two events swapped out of time order is rejected. Exit 77
        (skipped) when pajeng is not installed.
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_event_format  # noqa: E402

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)
    return condition


def timeline(progsim, work, name, program):
    path = os.path.join(work, name)
    p = subprocess.run([progsim, "run", "-n", "64", "--timeline", path, *program],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        print(p.stdout, p.stderr)
        sys.exit("progsim run exited %d" % p.returncode)
    return path


def chrome(progsim, work, program):
    paths = [timeline(progsim, work, n, program) for n in ("a.json", "b.json")]
    text = open(paths[0], "rb").read()
    check(text == open(paths[1], "rb").read(), "two timelines differ")
    print("chrome timeline: %d bytes" % len(text))
    trace = json.loads(text)
    errors = trace_event_format.validate(trace)
    for e in errors:
        print("invalid: " + e)
    check(not errors, "the timeline is valid trace-event JSON")
    events = trace["traceEvents"]
    recorded = sum(1 for e in events if e["ph"] != "M")
    check(trace["otherData"]["events"] == recorded,
          "every recorded event is written (%d in the file, %d recorded)" % (recorded, trace["otherData"]["events"]))
    check(not trace["otherData"]["truncated"], "not truncated")
    check(recorded > 100000, "a large timeline (%d events)" % recorded)
    check(len({e["tid"] for e in events if e["ph"] == "X"}) == 64, "every rank has intervals")
    check(text.rstrip().endswith(b"}") and text.index(b'"otherData"') > text.index(b'"traceEvents"'),
          "the metadata follows the events (written last)")
    # The validator must be able to fail: a flow without its end, an overlap.
    damaged = json.loads(text)
    damaged["traceEvents"] = [e for e in damaged["traceEvents"] if e["ph"] != "f"]
    check(trace_event_format.validate(damaged) != [], "the validator rejects flows without ends")
    damaged = json.loads(text)
    x = [e for e in damaged["traceEvents"] if e["ph"] == "X" and e["tid"] == 0 and e["dur"] > 0][:2]
    x[0]["dur"] = x[1]["ts"] - x[0]["ts"] + x[1]["dur"] / 2 + 1
    check(trace_event_format.validate(damaged) != [], "the validator rejects overlapping intervals")


def paje(progsim, work, program):
    if not shutil.which("pj_dump"):
        print("SKIP: pj_dump is not installed (Debian package pajeng; tools/install-deps.sh installs it)")
        sys.exit(77)
    paths = [timeline(progsim, work, n, program) for n in ("a.paje", "b.paje")]
    text = open(paths[0], "rb").read()
    check(text == open(paths[1], "rb").read(), "two Paje timelines differ")
    print("paje timeline: %d bytes" % len(text))
    p = subprocess.run(["pj_dump", paths[0]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0 and not p.stderr.strip(), "pj_dump reads it (exit %d): %s" % (p.returncode, p.stderr[:500]))
    states = [line.split(", ") for line in p.stdout.splitlines() if line.startswith("State, ")]
    ranks = {s[1] for s in states if s[-1] != "idle"}
    check(len(ranks) == 64, "pj_dump finds the states of 64 ranks (%d)" % len(ranks))
    check(any(s[-1] == "blocked: MPI_Allreduce" for s in states), "ranks blocked in MPI_Allreduce")
    check(any(s[-1] == "sleeping: sleeping" for s in states), "ranks sleeping")
    # pj_dump must be able to fail: an event moved before an earlier one.
    lines = text.decode().splitlines(keepends=True)
    events = [k for k, line in enumerate(lines) if line.startswith("6 ")]
    late, early = events[-1], events[len(events) // 2]
    lines.insert(early, lines.pop(late))
    bad = os.path.join(work, "out-of-order.paje")
    open(bad, "w").write("".join(lines))
    p = subprocess.run(["pj_dump", bad], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    check(p.returncode != 0, "pj_dump rejects events out of time order")


def main():
    progsim, work, mode, program = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    {"chrome": chrome, "paje": paje}[mode](progsim, work, program)
    print("FAILED" if failures else "PASSED")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
