#!/usr/bin/env python3
"""A validator of Chrome trace-event JSON (the "JSON Object Format" of the
Trace Event Format document that chrome://tracing and Perfetto read), for
what progsim writes: metadata (M), complete (X), instant (i) and flow
(s, f) events. No Debian or npm package provides Perfetto's trace processor,
so the format's rules are checked here.

usage: trace_event_format.py FILE   (exit 1 and the first errors when invalid)
"""
import json
import sys
from collections import defaultdict

PHASES = {"M", "X", "i", "s", "f"}
# Timestamps are decimal microseconds read as doubles: ts + dur of one event
# may pass the next event's ts by a rounding error. Perfetto keeps integer
# nanoseconds; a picosecond is far below that.
EPSILON_US = 1e-6
METADATA = {"process_name", "thread_name", "thread_sort_index", "process_sort_index"}


def validate(trace):
    """The list of errors of a parsed trace (empty when valid)."""
    errors = []

    def error(k, message):
        if len(errors) < 20:
            errors.append("event %d: %s" % (k, message))

    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        return ["not a JSON object with a traceEvents array"]
    if trace.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        errors.append("displayTimeUnit must be ms or ns")
    flows = defaultdict(dict)
    per_thread = defaultdict(list)
    for k, e in enumerate(trace["traceEvents"]):
        if not isinstance(e, dict):
            error(k, "not an object")
            continue
        ph = e.get("ph")
        if ph not in PHASES:
            error(k, "unknown phase %r" % ph)
            continue
        if not isinstance(e.get("name"), str):
            error(k, "no name")
        if not isinstance(e.get("pid"), int):
            error(k, "pid must be an integer")
        if ph != "M" or e.get("name") != "process_name":
            if not isinstance(e.get("tid"), int):
                error(k, "tid must be an integer")
        if ph == "M":
            if e.get("name") not in METADATA or not isinstance(e.get("args"), dict):
                error(k, "metadata event without a known name and args")
            continue
        ts = e.get("ts")
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or ts < 0:
            error(k, "ts must be a number >= 0")
            continue
        if "args" in e and not isinstance(e["args"], dict):
            error(k, "args must be an object")
        if ph == "X":
            dur = e.get("dur")
            if not isinstance(dur, (int, float)) or dur < 0:
                error(k, "a complete event needs dur >= 0")
            else:
                per_thread[(e["pid"], e["tid"])].append((ts, ts + dur, k))
        elif ph == "i":
            if e.get("s", "t") not in ("g", "p", "t"):
                error(k, "instant scope must be g, p or t")
        else:  # flow start / end, bound by id
            if "id" not in e:
                error(k, "a flow event needs an id")
                continue
            if e["id"] in flows[ph]:
                error(k, "flow id %r used twice for phase %s" % (e["id"], ph))
            flows[ph][e["id"]] = (ts, k)
            if ph == "f" and e.get("bp", "e") != "e":
                error(k, "flow end binding point must be e")
    for flow_id, (ts, k) in flows["f"].items():
        start = flows["s"].get(flow_id)
        if start is None:
            error(k, "flow end %r without a start" % flow_id)
        elif start[0] > ts:
            error(k, "flow %r ends before it starts" % flow_id)
    for flow_id, (ts, k) in flows["s"].items():
        if flow_id not in flows["f"]:
            error(k, "flow start %r without an end" % flow_id)
    # Complete events of one thread must nest: no partial overlap.
    for thread, spans in per_thread.items():
        spans.sort()
        stack = []
        for begin, end, k in spans:
            while stack and stack[-1] <= begin + EPSILON_US:
                stack.pop()
            if stack and end > stack[-1] + EPSILON_US:
                error(k, "complete event overlaps another of thread %s without nesting" % (thread,))
            stack.append(end)
    return errors


def main():
    with open(sys.argv[1]) as f:
        errors = validate(json.load(f))
    for e in errors:
        print(e)
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
