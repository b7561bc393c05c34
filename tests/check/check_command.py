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
  race_*:       tests/programs/race.c (3 ranks): rank 0 answers the first of two
                requests; it deadlocks only when rank 2's is taken first. With
                MPI_ANY_SOURCE (source), MPI_ANY_SOURCE + MPI_ANY_TAG (tag) and
                MPI_Waitany (waitany): a "message race" naming the decision's
                file:line and both senders, every default configuration
                completing; the *_fixed twins name their sources or tags: clean.
  more_*:       tests/programs/race_more.c (3 ranks), the same race through
                MPI_Testany, MPI_Waitsome, MPI_Testsome (assuming it returns
                every completed request) and MPI_Probe, Iprobe, Mprobe,
                Improbe with MPI_ANY_SOURCE: every policy explores an
                alternative, one deadlocks with a "message race" naming the
                call's file:line and the other choice; the *_fixed twins make
                the same decisions, explore the same alternatives, and stay clean.
  race_max_runs: --max-runs 1 lists the alternative left unexplored.
  type_mismatch: check_type_p2p.c bad: the verdict names the class "type mismatch".
  undefined:    lc_rma_rput_same.c same (MPICH's rma/reqops: every rank MPI_Rputs
                one location of rank 0 under MPI_Win_lock_all): every run completes,
                yet check finds one "undefined outcome" (MPI-4.1 §12.7) in both
                runs, although which two ranks meet first depends on the policy,
                naming both calls' line, and exits 1; undefined_twin (distinct
                locations): clean.
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


def race_case(program, mode, fixed):
    """check -n 3 PROGRAM MODE: the 32 configurations first, all completing;
    returns the result and the rows of the alternatives explored after them."""
    r = run_case(["-n", "3", os.path.join(programs, program), mode], 0 if fixed else 1)
    defaults = r["configurations"][:32]
    if len(defaults) != 32 or any(row.get("alternative") for row in defaults):
        fail("the first 32 rows are not the 32 configurations")
    bad = [row["configuration"] for row in defaults if row["outcome"] != "completed"]
    if bad:
        fail(f"the default choices do not complete under {bad}")
    return r, r["configurations"][32:]


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
    if r["unexplored"]:
        fail(f"head-to-head sends have no wildcard decision, yet something is unexplored: {r['unexplored']}")
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
elif case.startswith("race_") and case != "race_max_runs":
    mode = case[len("race_"):]
    fixed = mode.endswith("_fixed")
    r, alternatives = race_case("race", mode, fixed)
    if fixed:
        if alternatives or r["findings"] or r["unexplored"]:
            fail(f"the twin with fixed sources/tags has alternatives or findings: {alternatives} {r['findings']}")
    else:
        line = {"source": 23, "tag": 31, "waitany": 44}[mode]
        call = "MPI_Waitany" if mode == "waitany" else "MPI_Recv"
        if [row["policy"] for row in alternatives] != POLICIES:
            fail(f"expected one alternative per policy: {[row['configuration'] for row in alternatives]}")
        for row in alternatives:
            if row["outcome"] != "deadlock" or row["findings"] != [1]:
                fail(f"alternative {row['configuration']}: {row['outcome']}, findings {row['findings']}")
        if r["verdict"] != "message race" or len(r["findings"]) != 1:
            fail(f"verdict {r['verdict']!r}, findings {r['findings']}; expected one message race")
        f = r["findings"][0]
        want = f"rank 0's {call} at main (race.c:{line})"
        chosen, other = ("request 0", "request 1") if mode == "waitany" else ("rank 1's message", "rank 2's message")
        if not f["race"].startswith(want) or chosen not in f["race"] or other not in f["race"]:
            fail(f"the race does not name {want}, {chosen} and {other}: {f['race']}")
        if f["kind"] != "deadlock" or "race.c:56" not in f["summary"] or f["first_configuration"] != alternatives[0]["configuration"]:
            fail(f"finding {f}: expected rank 1's blocked receive (race.c:56) first under {alternatives[0]['configuration']}")
        if r["unexplored"]:
            fail(f"unexplored: {r['unexplored']}")
elif case.startswith("more_"):
    mode = case[len("more_"):]
    fixed = mode.endswith("_fixed")
    r, alternatives = race_case("race_more", mode, fixed)
    if {row["policy"] for row in alternatives} != set(POLICIES):
        fail(f"expected alternatives under every policy: {[row['configuration'] for row in alternatives]}")
    if r["unexplored"]:
        fail(f"unexplored: {r['unexplored']}")
    if fixed:
        if r["findings"] or any(row["outcome"] != "completed" for row in alternatives):
            fail(f"the fixed twin has findings: {r['findings']} {[(row['configuration'], row['outcome']) for row in alternatives]}")
    else:
        call, line, other = {"testany": ("MPI_Testany", 41, "returning request 1 instead"),
                             "waitsome": ("MPI_Waitsome", 47, "returning request 1 alone instead"),
                             "testsome": ("MPI_Testsome", 49, "returning request 1 alone instead"),
                             "probe": ("MPI_Probe", 63, "seeing rank 2's message (tag 0) instead"),
                             "iprobe": ("MPI_Iprobe", 66, "seeing rank 2's message (tag 0) instead"),
                             "mprobe": ("MPI_Mprobe", 68, "seeing rank 2's message (tag 0) instead"),
                             "improbe": ("MPI_Improbe", 71, "seeing rank 2's message (tag 0) instead")}[mode]
        if r["verdict"] != "message race" or len(r["findings"]) != 1:
            fail(f"verdict {r['verdict']!r}, findings {r['findings']}; expected one message race")
        f = r["findings"][0]
        want = f"rank 0's {call} at main (race_more.c:{line})"
        if not f["race"].startswith(want) or other not in f["race"]:
            fail(f"the race does not name {want} and {other!r}: {f['race']}")
        if f["kind"] != "deadlock" or "race_more.c:87" not in f["summary"]:
            fail(f"finding {f}: expected rank 1's blocked receive (race_more.c:87)")
        for p in POLICIES:
            rows = [row for row in alternatives if row["policy"] == p]
            if not any(row["outcome"] == "deadlock" and row["findings"] == [1] for row in rows):
                fail(f"no alternative of {p} deadlocks with the race: {[(row['configuration'], row['outcome']) for row in rows]}")
            if any(row["outcome"] not in ("completed", "deadlock") for row in rows):
                fail(f"unexpected outcomes under {p}: {[(row['configuration'], row['outcome']) for row in rows]}")
elif case == "race_max_runs":
    r = run_case(["--max-runs", "1", "-n", "3", os.path.join(programs, "race"), "source"], 0)
    if [row["configuration"] for row in r["configurations"]] != ["weak"]:
        fail(f"--max-runs 1 ran {[row['configuration'] for row in r['configurations']]}")
    want = "weak: rank 0's decision 1, MPI_Recv at main (race.c:23): rank 2's message (tag 0) instead of rank 1's message (tag 0)"
    if want not in r["unexplored"]:
        fail(f"the unexplored alternative is not listed as {want!r}: {r['unexplored']}")
    if r["verdict"] != "no error found in the explored configurations":
        fail(f"verdict {r['verdict']!r}")
elif case == "type_mismatch":
    r = run_case(["--policies", "weak,ideal", "--max-runs", "2", "-n", "2",
                  os.path.join(programs, "check_type_p2p"), "bad"], 1)
    if r["verdict"] != "type mismatch" or {f["class"] for f in r["findings"]} != {"type mismatch"}:
        fail(f"verdict {r['verdict']!r}, classes {[f['class'] for f in r['findings']]}; expected type mismatch")
elif case in ("undefined", "undefined_twin"):
    twin = case == "undefined_twin"
    r = run_case(["--policies", "weak,ideal", "--max-runs", "2", "-n", "4",
                  os.path.join(programs, "lc_rma_rput_same"), "own" if twin else "same"], 0 if twin else 1)
    if any(o != "completed" for o in outcomes(r).values()):
        fail(f"outcomes {outcomes(r)}, expected completed everywhere (an undefined outcome is not erroneous)")
    if twin:
        if r["findings"]:
            fail(f"the twin that puts to distinct locations has findings: {r['findings']}")
    else:
        # Which two ranks' puts meet first depends on the policy (ranks 2
        # and 0 under weak, 0 and 1 under ideal): one finding all the same,
        # identified by its calls' source lines.
        if r["verdict"] != "undefined outcome" or len(r["findings"]) != 1:
            fail(f"verdict {r['verdict']!r}, findings {r['findings']}; expected one undefined outcome")
        f = r["findings"][0]
        if f["kind"] != "undefined" or f["class"] != "undefined outcome" or f["configurations"] != 2:
            fail(f"finding {f}: expected kind undefined, class undefined outcome, in both configurations")
        if f["summary"].count("MPI_Rput at main (lc_rma_rput_same.c:24)") != 2 or "MPI-4.1 §12.7" not in f["summary"]:
            fail(f"the finding does not name both MPI_Rput calls' line and the section: {f['summary']}")
else:
    fail("unknown case " + case)
