#!/usr/bin/env python3
"""progsim check on the seed examples of the progress texts (issue 16).

usage: check_command.py PROGSIM PROGRAM_DIR CASE
Each case runs `progsim check --json` twice (byte-identical), checks the
verdict the texts give, the first (smallest) configuration that shows each
finding, the exit status, and that the text output says the same.
  head_to_head: both ranks MPI_Send 4 MiB first: "needs buffering" under every
                policy with the default eager threshold, completes with an
                unbounded one (MPI-4.1 §3.5, Example 3.9).
  example_12x:  Bsend then a spin on a shared-window flag: "needs strong
                progress", deadlocks under weak only (but for the freedoms
                that move the data without the sender's library).
  figure33:     PSCW with receives before the start (file 002, Figure 33):
                "incorrect under every MPI", in every configuration.
  hello:        no finding, exit status 0.
  usage:        bad options are usage errors (exit status 2) naming the option.
"""
import json
import os
import subprocess
import sys

progsim, programs, case = sys.argv[1:4]


def fail(message):
    sys.exit("FAIL: " + message)


def check(*args, expect_status):
    r = subprocess.run([progsim, "check", *args], capture_output=True, text=True)
    if r.returncode != expect_status:
        fail(f"check {' '.join(args)} exited {r.returncode}, expected {expect_status}:\n{r.stdout}\n{r.stderr}")
    return r


def run_case(run_args, expect_status):
    first = check("--json", *run_args, expect_status=expect_status).stdout
    if check("--json", *run_args, expect_status=expect_status).stdout != first:
        fail("check --json differs between two runs")
    result = json.loads(first)
    text = check(*run_args, expect_status=expect_status).stdout
    print(text)
    if f"verdict: {result['verdict']}\n" not in text:
        fail("the text output does not end with the JSON's verdict")
    return result


def outcomes(result):
    return {row["configuration"]: row["outcome"] for row in result["configurations"]}


POLICIES = ["weak", "thread", "offload", "ideal"]
if case == "head_to_head":
    r = run_case(["-n", "2", os.path.join(programs, "head_to_head")], 1)
    o = outcomes(r)
    if len(r["configurations"]) != 32:
        fail(f"{len(r['configurations'])} configurations, expected 4 policies x (defaults + 7 freedoms) = 32")
    for p in POLICIES:
        if o[p] != "deadlock":
            fail(f"{p} with the defaults: {o[p]}, expected deadlock (4 MiB > 64 KiB eager threshold)")
        if o[p + ", eager-threshold=unbounded"] != "completed":
            fail(f"{p} with an unbounded eager threshold: {o[p + ', eager-threshold=unbounded']}, expected completed")
    if r["verdict"] != "needs buffering":
        fail(f"verdict {r['verdict']!r}, expected 'needs buffering'")
    f = r["findings"][0]
    if f["first_configuration"] != "weak" or f["kind"] != "deadlock":
        fail(f"first finding {f}, expected a deadlock first seen under weak")
    if "unsafe_send_order.c:17" not in f["summary"]:
        fail(f"the finding does not name the blocked sends' line: {f['summary']}")
    if "wildcard" not in " ".join(r["unexplored"]):
        fail("the unexplored list does not say that wildcard matches are not explored")
elif case == "example_12x":
    r = run_case(["-n", "2", "--ranks-per-node", "2", os.path.join(programs, "bsend_shared_flag")], 1)
    o = outcomes(r)
    # Strong progress completes it whatever the freedoms; weak progress
    # deadlocks with the defaults (8 MiB: a rendezvous the sender's library
    # must progress), and completes only where the data moves without the
    # sender: sent eagerly (unbounded threshold) or read by the receiver
    # (pull rendezvous).
    for name, outcome in o.items():
        if name.startswith("weak"):
            completes = name in ("weak, eager-threshold=unbounded", "weak, rendezvous=pull")
            expected = "completed" if completes else "deadlock"
        else:
            expected = "completed"
        if outcome != expected:
            fail(f"{name}: {outcome}, expected {expected} (Example 12.x needs strong progress)")
    if r["verdict"] != "needs strong progress":
        fail(f"verdict {r['verdict']!r}, expected 'needs strong progress'")
elif case == "figure33":
    r = run_case(["-n", "2", os.path.join(programs, "rma_pscw_figures"), "fig33"], 1)
    bad = [n for n, o in outcomes(r).items() if o != "deadlock"]
    if bad:
        fail(f"Figure 33 did not deadlock under {bad}")
    if r["verdict"] != "incorrect under every MPI":
        fail(f"verdict {r['verdict']!r}, expected 'incorrect under every MPI'")
elif case == "hello":
    r = run_case(["--policies", "weak,ideal", "--max-runs", "5", "-n", "3", os.path.join(programs, "hello")], 0)
    if r["findings"] or any(o != "completed" for o in outcomes(r).values()):
        fail(f"hello has findings: {r['findings']}")
    if len(r["configurations"]) != 5:
        fail(f"--max-runs 5 ran {len(r['configurations'])} configurations")
    if not any(u.startswith("weak, coll-sync=") for u in r["unexplored"]):
        fail(f"the configurations beyond --max-runs are not listed as unexplored: {r['unexplored']}")
elif case == "usage":
    for args, words in ((["--max-runs", "0", "x"], "--max-runs 0: not a positive number"),
                        (["--policies", "fast", "x"], "fast"),
                        (["--progress", "weak", "x"], "--progress is chosen by check itself"),
                        ([], "no program to check")):
        r = check(*args, expect_status=2)
        if words not in r.stderr:
            fail(f"check {' '.join(args)}: stderr does not say {words!r}:\n{r.stderr}")
else:
    fail("unknown case " + case)
