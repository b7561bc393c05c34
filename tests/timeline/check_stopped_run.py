#!/usr/bin/env python3
"""A run stopped before its ranks finished reports only what happened before
the stop (sim::RankModel::on_run_stopped).

Usage: check_stopped_run.py PROGSIM OUTDIR OUTCOME -- RUN-ARGS...

Runs `PROGSIM run --report OUTDIR/report.json --timeline OUTDIR/timeline.json
RUN-ARGS...`, expects OUTCOME, and checks that the report and the timeline
agree: every chunk the report counts (per rank and executor) is one chunk
event of the timeline, and the timeline's event count is the number of events
it holds. The timeline shows nothing after the end of the run; when the
engine still ran a NIC's pending steps and delivered packets after the stop
(while the killed ranks unwound, their stacks freed), the report counted
those chunks, messages and events too, and the chunks wrote into the freed
stacks (AddressSanitizer: heap-use-after-free in ReduceWork::store).
"""
import json
import os
import subprocess
import sys


def main():
    progsim, outdir, outcome = sys.argv[1:4]
    assert sys.argv[4] == "--", "usage: check_stopped_run.py PROGSIM OUTDIR OUTCOME -- RUN-ARGS..."
    os.makedirs(outdir, exist_ok=True)
    report_path = os.path.join(outdir, "report.json")
    timeline_path = os.path.join(outdir, "timeline.json")
    cmd = [progsim, "run", "--report", report_path, "--timeline", timeline_path] + sys.argv[5:]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stderr.write(run.stderr[-2000:])
    failures = []
    with open(report_path) as f:
        report = json.load(f)
    with open(timeline_path) as f:
        timeline = json.load(f)
    if report["outcome"] != outcome:
        failures.append(f"outcome {report['outcome']}, expected {outcome}")
    events = [e for e in timeline["traceEvents"] if e.get("ph") != "M"]
    chunk_events = sum(1 for e in events if e.get("cat") == "chunk")
    reported_chunks = 0
    for rank in report["ranks"]:
        reported_chunks += sum(v for k, v in rank["chunks"].items() if k != "host_fallback")
    if reported_chunks != chunk_events:
        failures.append(f"the report counts {reported_chunks} chunks, the timeline shows {chunk_events}")
    if reported_chunks == 0:
        failures.append("no chunk ran: the run does not exercise the stop")
    recorded = timeline["otherData"]["events"]
    if recorded != len(events):
        failures.append(f"the timeline says {recorded} events and holds {len(events)}")
    messages = report["messages"]
    if messages["completed"] > messages["count"] or report["network"]["packets"] < messages["count"]:
        failures.append(f"messages {messages['count']} (completed {messages['completed']}), "
                        f"packets {report['network']['packets']}")
    for failure in failures:
        print("FAIL: " + failure)
    print(f"outcome {report['outcome']}, chunks {reported_chunks}, events {recorded}, "
          f"messages {messages['count']} (completed {messages['completed']})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
