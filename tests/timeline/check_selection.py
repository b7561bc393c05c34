#!/usr/bin/env python3
"""progsim run --timeline restricted for large runs (issue 18).

usage: check_selection.py PROGSIM PROGRAM WORKDIR {ranks|window|cap|errors}

ranks   --timeline-ranks 1,3-4: only those ranks' intervals and chunks, messages
        from or to them; the metadata names the selection.
window  --timeline-window T0:T1: every event inside [T0, T1] (intervals clipped),
        fewer events than the whole run.
cap     --timeline-max-events 50: at most 50 events, the metadata says the
        timeline was truncated and when, stderr says so too, the run still
        completes (exit 0); Paje gets the mark as a comment.
errors  bad lists and windows, a rank the run does not have, a selection
        without --timeline: exit 2 with a message naming the option.
Every file is byte-identical across two runs.
"""
import json
import os
import subprocess
import sys

progsim, program, workdir, mode = sys.argv[1:5]
os.makedirs(workdir, exist_ok=True)
RANKS = ["-n", "5"]


def fail(message):
    sys.exit("FAIL: " + message)


def run(options, name, expect=0):
    out = os.path.join(workdir, name)
    p = subprocess.run([progsim, "run", "--timeline", out, *options, *RANKS, program], capture_output=True, text=True)
    if p.returncode != expect:
        fail(f"{' '.join(options)}: exit {p.returncode}, expected {expect}\n{p.stderr}")
    return p, out


def timeline(options, name):
    p, out = run(options, name)
    text = open(out).read()
    run(options, name + ".again")
    if open(out + ".again").read() != text:
        fail(f"{' '.join(options)}: the timeline differs between two runs")
    return p, json.loads(text)


def events(trace, phases):
    return [e for e in trace["traceEvents"] if e["ph"] in phases]


if mode == "ranks":
    _, whole = timeline([], "whole.json")
    _, trace = timeline(["--timeline-ranks", "1,3-4"], "ranks.json")
    tids = {e["tid"] for e in events(trace, "Xi")}
    if tids != {1, 3, 4}:
        fail(f"intervals and chunks of ranks {sorted(tids)}, expected [1, 3, 4]")
    names = {e["tid"] for e in events(trace, "M") if e["name"] == "thread_name"}
    if names != {1, 3, 4}:
        fail(f"thread names for ranks {sorted(names)}")
    for s, f in zip(events(trace, "s"), events(trace, "f")):
        if s["tid"] not in (1, 3, 4) and f["tid"] not in (1, 3, 4):
            fail(f"a message from {s['tid']} to {f['tid']}")
    if trace["otherData"]["selection"]["ranks"] != [1, 3, 4]:
        fail(f"metadata selection {trace['otherData']['selection']}")
    if whole["otherData"]["selection"]["ranks"] != "all" or len(events(whole, "Xi")) <= len(events(trace, "Xi")):
        fail("the whole timeline is not larger than the selected one")
elif mode == "window":
    _, whole = timeline([], "whole.json")
    end = whole["otherData"]["end_time"]
    t0, t1 = float(f"{end * 0.25:.9f}"), float(f"{end * 0.5:.9f}")
    _, trace = timeline(["--timeline-window", f"{t0:.9f}:{t1:.9f}"], "window.json")
    lo, hi = t0 * 1e6 - 1e-5, t1 * 1e6 + 1e-5
    xs = events(trace, "X")
    if not xs:
        fail("no interval in the window")
    for e in xs:
        if e["ts"] < lo or e["ts"] + e["dur"] > hi:
            fail(f"interval {e['name']} of rank {e['tid']} at {e['ts']} us (+{e['dur']}) outside [{lo}, {hi}] us")
    for e in events(trace, "i"):
        if not lo <= e["ts"] <= hi:
            fail(f"chunk at {e['ts']} us outside the window")
    if len(trace["traceEvents"]) >= len(whole["traceEvents"]):
        fail("the window did not make the timeline smaller")
    if trace["otherData"]["selection"]["window"] != [t0, t1]:
        fail(f"metadata window {trace['otherData']['selection']['window']}")
elif mode == "cap":
    p, trace = timeline(["--timeline-max-events", "50"], "cap.json")
    data = trace["otherData"]
    recorded = len(events(trace, "Xisf"))
    if recorded > 50 or data["events"] != recorded:
        fail(f"{recorded} events recorded, metadata says {data['events']}, cap 50")
    if not data["truncated"] or "--timeline-max-events 50" not in data.get("truncation", ""):
        fail(f"metadata does not say the timeline was truncated: {data}")
    if "progsim: timeline: the event cap (--timeline-max-events 50) was reached at" not in p.stderr:
        fail("stderr does not say the cap was reached:\n" + p.stderr)
    if data["outcome"] != "completed":
        fail(f"outcome {data['outcome']}")
    _, whole = timeline([], "whole.json")
    if whole["otherData"]["truncated"] or whole["otherData"]["selection"]["max_events"] != 1000000:
        fail("the default cap truncated a small run, or is not 1000000")
    run(["--timeline-max-events", "50"], "cap.paje")
    if "# truncated timeline: the event cap" not in open(os.path.join(workdir, "cap.paje")).read():
        fail("the Paje file does not say it was truncated")
elif mode == "errors":
    cases = [
        (["--timeline-ranks", "1,x"], "--timeline-ranks: 'x' is not a rank or a range of ranks"),
        (["--timeline-ranks", "3-1"], "--timeline-ranks: the range '3-1' is empty"),
        (["--timeline-ranks", "7"], "--timeline-ranks: rank 7 does not exist (the run has 5 ranks)"),
        (["--timeline-window", "2"], "--timeline-window: '2' is not a window T0:T1"),
        (["--timeline-window", "2:1"], "--timeline-window: the window '2:1' is empty"),
        (["--timeline-window", "a:1"], "--timeline-window: 'a' is not a number of seconds"),
        (["--timeline-max-events", "-5"], "--timeline-max-events: '-5' is not a number of events"),
    ]
    for options, message in cases:
        p, _ = run(options, "error.json", expect=2)
        if message not in p.stderr:
            fail(f"{' '.join(options)}: stderr lacks '{message}':\n{p.stderr}")
    p = subprocess.run([progsim, "run", "--timeline-ranks", "0", *RANKS, program], capture_output=True, text=True)
    if p.returncode != 2 or "need --timeline FILE" not in p.stderr:
        fail(f"a selection without --timeline: exit {p.returncode}\n{p.stderr}")
else:
    sys.exit("unknown mode " + mode)
print("ok")
