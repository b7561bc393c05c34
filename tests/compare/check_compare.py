#!/usr/bin/env python3
"""progsim compare on the Iallreduce overlap example (16 ranks, 4 per node).

usage: check_compare.py PROGSIM PROGRAM MODE
  overlap: the overlap column (JSON and CSV) ranks the policies
           ideal >= thread >= offload >= weak, with weak near 0 and ideal
           near 1, and the JSON is byte-identical across two runs.
  output:  each policy's program stdout is shown after the table (indented,
           cut by --output-lines, none with 0), in the JSON rows and in the
           HTML page (a collapsed <details> block), byte-identical across two runs.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

progsim, program, mode = sys.argv[1:4]
RUN = ["-n", "16", "--ranks-per-node", "4", program]
POLICIES = ["ideal", "thread", "offload", "weak"]


def compare(*options):
    r = subprocess.run([progsim, "compare", *options, *RUN], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"compare {' '.join(options)} exited {r.returncode}:\n{r.stdout}\n{r.stderr}")
    return r.stdout


def fail(message):
    sys.exit("FAIL: " + message)


if mode == "overlap":
    text = compare("--json")
    if compare("--json") != text:
        fail("compare --json differs between two runs")
    rows = {row["policy"]: row for row in json.loads(text)}
    overlap = {p: rows[p]["overlap"] for p in POLICIES}
    print("overlap (JSON):", overlap)
    for p in POLICIES:
        if not isinstance(overlap[p], (int, float)):
            fail(f"{p}: overlap is {overlap[p]!r}, not a number")
    for better, worse in zip(POLICIES, POLICIES[1:]):
        if overlap[better] < overlap[worse]:
            fail(f"overlap of {better} ({overlap[better]}) < that of {worse} ({overlap[worse]})")
    # The program's first 3 Iallreduces are waited for at once (nothing to
    # hide behind), the 4th has 2 s of computation: under ideal progress it
    # is hidden entirely, so a quarter of the communication time is hidden.
    if not 0.2 <= overlap["ideal"] <= 0.3:
        fail(f"ideal overlap {overlap['ideal']} not in [0.2, 0.3] (1 of 4 equal Iallreduces hidden)")
    # Weak progress hides nothing: the rounds advance only inside MPI_Wait.
    if overlap["weak"] > 0.05:
        fail(f"weak overlap {overlap['weak']} > 0.05 (its rounds advance only inside MPI_Wait)")
    for p in POLICIES:  # 4 Iallreduces on each of 16 ranks
        if rows[p].get("nonblocking_operations") != 64:
            fail(f"{p}: {rows[p].get('nonblocking_operations')} nonblocking operations measured, expected 64")
    table = list(csv.DictReader(io.StringIO(compare("--csv"))))
    csv_overlap = {row["policy"]: float(row["overlap"]) for row in table}
    print("overlap (CSV): ", csv_overlap)
    for p in POLICIES:
        if abs(csv_overlap[p] - overlap[p]) > 1e-5:
            fail(f"{p}: CSV overlap {csv_overlap[p]} != JSON {overlap[p]}")
elif mode == "output":
    text = compare("--policies", "weak,ideal")
    if compare("--policies", "weak,ideal") != text:
        fail("compare's table and program output differ between two runs")
    print(text)
    # The program's own result, per policy, after the table, indented.
    for policy, figure in (("weak", r"0\.[0-9]+%"), ("ideal", r"99\.9[0-9]*%")):
        block = re.search(r"\nprogram output of " + policy + r" \(stdout, [0-9]+ lines\):\n((?:    .*\n)+)", text)
        if not block:
            fail(f"no indented 'program output of {policy}' block after the table")
        if not re.search(r"    overlap: " + figure + "\n", block.group(1)):
            fail(f"{policy}'s program output does not show 'overlap: {figure}'")
    short = compare("--policies", "weak", "--output-lines", "2")
    if "\n    not overlapped: " not in short or "\n    ... 2 more lines (--output-lines N shows more; " not in short:
        fail("--output-lines 2 does not cut the output after 2 lines:\n" + short)
    if "program output" in compare("--policies", "weak", "--output-lines", "0"):
        fail("--output-lines 0 still shows the program output")
    rows = {row["policy"]: row for row in json.loads(compare("--policies", "weak,ideal", "--json"))}
    if not re.search(r"overlap: 0\.[0-9]+%\n", rows["weak"]["program_output"]):
        fail("the JSON row of weak has no program_output with its overlap line")
    with tempfile.TemporaryDirectory() as tmp:
        html = os.path.join(tmp, "c.html")
        compare("--policies", "weak,ideal", "--html", html)
        page = open(html).read()
        if not re.search(r"<details class=\"output\" data-policy=\"weak\"><summary>weak: program output "
                         r"\(stdout, [0-9]+ lines\)</summary><pre>[^<]*overlap: 0\.[0-9]+%", page):
            fail("the HTML page has no collapsed program output block for weak")
else:
    sys.exit(f"unknown mode {mode}")
print("ok")
