#!/usr/bin/env python3
"""The HTML report and the figures of progsim compare (issue 18).

usage: check_html.py PROGSIM WORKDIR CASE PROGRAM [ARGS...]

CASE is one of:
  deadlock   2 ranks, bsend_shared_flag: weak deadlocks, the others complete
  overlap16  16 ranks (4 per node), iallreduce_overlap
  scale64    64 ranks, allreduces_then_sleep (200 allreduces, 1 s sleep, 8 MiB allreduce)
  capped     the same with 20 allreduces and --timeline-max-events 5000: each
             timeline cut early, and the page says where

Each case runs `compare --html --figures` twice and checks that the page and
every figure file are byte-identical, the page is self-contained and within
its size bound, its tables are sortable HTML tables, the timeline data hold
nothing after each run's end and are bounded, the explanation is prose with
source lines, and the figures are well-formed SVG with the expected series,
their CSV numbers agreeing with the reports. Then the case's own checks.
"""
import csv
import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_cases import POLICIES, RUN_OPTIONS, SIZE_LIMIT, checker  # noqa: E402

failures = []

check = checker(failures)


def compare(progsim, work, tag, case, program):
    page = os.path.join(work, tag + ".html")
    figures = os.path.join(work, tag + "-figures")
    os.makedirs(figures, exist_ok=True)
    reports = os.path.join(work, tag + "-reports")
    os.makedirs(reports, exist_ok=True)
    args = [progsim, "compare", "--html", page, "--figures", figures, "--reports", reports,
            *RUN_OPTIONS[case], *program]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 3):  # 3: a policy deadlocked, as in the deadlock case
        print(p.stdout, p.stderr)
        sys.exit("compare exited %d" % p.returncode)
    files = {name: open(os.path.join(figures, name), "rb").read() for name in sorted(os.listdir(figures))}
    return open(page, "rb").read(), files, reports, p.stdout


def timeline_data(page):
    m = re.search(r'<script type="application/json" id="timeline-data">(.*?)</script>', page, re.S)
    check(m is not None, "the page carries its timeline data")
    return json.loads(m.group(1).replace("<\\/", "</")) if m else {"runs": []}


def check_page(case, page, size):
    check(size <= SIZE_LIMIT[case], "%s: the page is %d bytes, over its bound %d" % (case, size, SIZE_LIMIT[case]))
    # Self-contained: no external script, style, image or font; the only URLs
    # are SVG's namespace.
    check(re.search(r'<(script|img|link|iframe)[^>]+(src|href)=', page) is None, "no external resource")
    check(re.search(r'https?://(?!www\.w3\.org/2000/svg)', page) is None, "no URL but the SVG namespace")
    check("<pre class=\"table\">" not in page, "the table is not a <pre> block")
    # Sortable table: one header per column, numbers to sort by.
    header = re.search(r'<table class="sortable" id="compare-table">\s*<thead><tr>(.*?)</tr></thead>', page, re.S)
    if check(header is not None, "the comparison is a sortable HTML table"):
        columns = re.findall(r'<th data-column="([a-z_]+)"', header.group(1))
        for column in ("policy", "outcome", "simulated_time", "blocked_in_mpi", "latency_median", "overlap"):
            check(column in columns, "table column " + column)
    body = page.split('id="compare-table"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>", 1)[1], re.S)
    check(len(rows) == 4, "one table row per policy (%d)" % len(rows))
    check(all(re.search(r'<td data-sort="[-0-9.e+]+">', row) for row in rows), "numeric cells carry data-sort")
    check("tables.js" not in page and "sortBy(table" in page, "the sorting script is inline")
    data = timeline_data(page)
    check([r["policy"] for r in data["runs"]] == POLICIES, "a timeline per policy, in order")
    for run in data["runs"]:
        s, policy = run["summary"], run["policy"]
        end = s["end"]
        check(all(i[2] <= i[3] <= end for i in s["intervals"]), policy + ": no interval after the run's end")
        check(all(c[1] <= end for c in s["chunks"]), policy + ": no progress chunk after the run's end")
        check(all(m[2] <= m[3] <= end for m in s["messages"]), policy + ": no message after the run's end")
        check(s["lanes"]["count"] <= 32, policy + ": at most 32 lanes")
        check(len(s["levels"]) >= 1 and s["levels"][0]["buckets"] == 1024, policy + ": a 1,024-bucket level")
        for level in s["levels"]:
            check(len(level["lanes"]) == s["lanes"]["count"], policy + ": every lane at every level")
        # 30,000 by where they begin, plus intervals reaching into an exact part from before.
        check(len(s["intervals"]) + len(s["chunks"]) + len(s["messages"]) <= 30000 + s["ranks"] * len(s["tiles"]["exact"]),
              policy + ": the exact events stay within their budget")
    return data


def check_figures(case, files, reports):
    expected = ["latency_cdf", "overlap_per_operation"] + ["time_by_state." + p for p in POLICIES]
    for name in expected:
        for ext in (".svg", ".csv"):
            check(name + ext in files, "figure file " + name + ext)
    for name, content in files.items():
        if name.endswith(".svg"):
            try:
                root = ET.fromstring(content)
            except ET.ParseError as e:
                check(False, "%s is not well-formed XML: %s" % (name, e))
                continue
            check(root.tag == "{http://www.w3.org/2000/svg}svg", name + " is an SVG document")
    # Axis labels in units, never in exponent notation.
    for name in ("latency_cdf.svg", "time_by_state.weak.svg"):
        labels = re.findall(rb"<text[^>]*>([^<]*)</text>", files.get(name, b""))
        check(not any(re.search(rb"[0-9]e[-+]?[0-9]", l) for l in labels), name + ": no exponent notation")
        check(any(re.fullmatch(rb"[0-9.]+ (s|ms|\xc2\xb5s|ns)", l) for l in labels), name + ": time labels with units")
    series = lambda name: re.findall(rb'<g class="series" data-series="([^"]+)"', files.get(name, b""))
    check(series("time_by_state.weak.svg") == [b"computing", b"in MPI calls", b"progress chunks", b"blocked in MPI",
                                               b"polling", b"sleeping"], "time_by_state series")
    check(series("latency_cdf.svg") == [p.encode() for p in POLICIES], "latency_cdf: one line per policy")
    # The CSV numbers are the reports' and the timeline's.
    for policy in POLICIES:
        report = json.load(open(os.path.join(reports, policy + ".json")))
        cdf = [row for row in csv.DictReader(io.StringIO(files["latency_cdf.csv"].decode())) if row["policy"] == policy]
        points = report["messages"]["latency_cdf"]
        check(len(cdf) == len(points) and all(abs(float(r["latency_seconds"]) - p[1]) <= 1e-9 * max(1, p[1])
                                              for r, p in zip(cdf, points)), policy + ": latency_cdf.csv = the report's")
        if points:
            check(abs(points[50][1] - report["messages"]["latency_median"]) <= 1e-12, policy + ": CDF at 50% = median")
        rows = list(csv.DictReader(io.StringIO(files["time_by_state.%s.csv" % policy].decode())))
        total = sum(sum(float(r[k]) for k in r if k not in ("policy", "row")) for r in rows)
        ranks = len(report["ranks"])
        summary = json.load(open(os.path.join(reports, policy + ".summary.json")))
        # What the timeline recorded: the run, or its beginning when the event cap cut it.
        recorded = summary["truncated_at"] if summary["truncated"] else report["simulated_time"]
        check(summary["truncated"] == (b"recorded until" in files["time_by_state.%s.svg" % policy]),
              policy + ": the figure says when its timeline was cut")
        check(total <= ranks * report["simulated_time"] * (1 + 1e-9) + 1e-12,
              "%s: time by state (%g s) within ranks x run time" % (policy, total))
        check(total >= 0.5 * ranks * recorded,
              "%s: time by state (%g s) covers most of ranks x the recorded time (%g s)" % (policy, total, ranks * recorded))


def case_deadlock(page, data, files):
    weak = next(r["summary"] for r in data["runs"] if r["policy"] == "weak")
    check(weak["outcome"] == "deadlock", "weak deadlocks")
    check(any(m["kind"] == "deadlock" and m["t0"] == weak["end"] for m in weak["marks"]), "weak: a deadlock mark at its end")
    check(re.search(r'<div id="zoom-to">.*weak: deadlock, the end of the run', page, re.S) is not None,
          "the zoom-to list names weak's deadlock")
    block = page.split('<div class="explanation" data-policy="weak" data-outcome="deadlock">', 1)
    if check(len(block) == 2, "an explanation for weak's deadlock"):
        text = block[1].split("</div>", 1)[0]
        check("<pre" not in text, "the explanation is prose, not <pre>")
        check(re.search(r"<strong>Rank 0</strong> is polling watched memory at <code>bsend_shared_flag\.c:[0-9]+</code>", text)
              is not None, "rank 0 polls, said in a sentence")
        check(re.search(r"<strong>Rank 1</strong> is blocked since [0-9.]+ \u00b5s in <code>MPI_Recv\(", text) is not None,
              "rank 1 is blocked in MPI_Recv, said in a sentence")
        check(re.search(r'<code>bsend_shared_flag\.c:[0-9]+</code>', text) is not None, "the source file and line")
        check(re.search(r'<code class="source">[0-9]+ \| [^<]*(MPI_|while|flag)', text) is not None,
              "the source line's text")
    check('<div class="explanation" data-policy="ideal" data-outcome="completed">' in page, "ideal completed")


def case_overlap16(page, data, files):
    rows = list(csv.DictReader(io.StringIO(files["overlap_per_operation.csv"].decode())))
    by_policy = {p: [float(r["overlap"]) for r in rows if r["policy"] == p] for p in POLICIES}
    for p in POLICIES:
        check(len(by_policy[p]) == 64, "%s: 64 nonblocking operations (%d)" % (p, len(by_policy[p])))
    # The 4th Iallreduce of each rank has 2 s of computation to hide behind.
    check(sum(1 for v in by_policy["ideal"] if v > 0.99) == 16, "ideal: 16 operations hidden entirely")
    check(max(by_policy["weak"]) < 0.05, "weak: no operation hidden")
    check(re.search(rb'data-series="ideal"[^>]*data-points="64"', files["overlap_per_operation.svg"]) is not None,
          "the overlap figure plots 64 operations of ideal")


def case_scale64(page, data, files):
    for run in data["runs"]:
        s = run["summary"]
        check(s["lanes"] == {"count": 32, "ranks_per_lane": 2}, run["policy"] + ": 64 ranks in 32 lanes of 2")
        check(len(s["levels"]) >= 2, run["policy"] + ": finer levels than the coarsest")
        check(s["ranks"] == 64 and 1.0 < s["end"] < 1.1, run["policy"] + ": 64 ranks, about 1 s")


def case_capped(page, data, files):
    for run in data["runs"]:
        s = run["summary"]
        check(s["truncated"] and 0 < s["truncated_at"] < 1e-3, run["policy"] + ": the timeline was cut early")
        check({"kind": "truncated", "t0": s["truncated_at"], "t1": s["truncated_at"]} in s["marks"],
              run["policy"] + ": a mark where it was cut")
        check(re.search(r'data-policy="%s"[^>]*><h3>[^<]*\(timeline cut at [0-9.]+ \u00b5s: event cap\)</h3>'
                        % run["policy"], page) is not None, run["policy"] + ": its heading says where it was cut")
    check(page.count(": the timeline&#x27;s event cap was reached") + page.count(": the timeline's event cap was reached") == 4,
          "the zoom-to list has each cut")


def main():
    progsim, work, case, program = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    page_a, files_a, reports, stdout = compare(progsim, work, "a", case, program)
    page_b, files_b, _, _ = compare(progsim, work, "b", case, program)
    check(page_a == page_b, "two pages differ")
    check(files_a == files_b, "two sets of figure files differ")
    page = page_a.decode()
    print("%s: page %d bytes" % (case, len(page_a)))
    data = check_page(case, page, len(page_a))
    check_figures(case, files_a, reports)
    {"deadlock": case_deadlock, "overlap16": case_overlap16, "scale64": case_scale64,
     "capped": case_capped}[case](page, data, files_a)
    print("FAILED" if failures else "PASSED")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
