#!/usr/bin/env python3
"""Headless Chromium loads the HTML report (issue 18's acceptance).

usage: chromium_acceptance.py PROGSIM WORKDIR CASE PROGRAM [ARGS...]

CASE: deadlock (2 ranks), overlap16 (16 ranks), scale64 (64 ranks), or
zoom64 (64 ranks, the view set by the URL fragment to the 8 MiB allreduce
after the 1 s sleep: its rounds must be drawn as message arrows).

The page's own timing (performance.now() when the first drawing was done,
written on <body> as data-load-ms) is the load time. Issue 18 asks for under
2 s: that verdict is printed and recorded in WORKDIR/CASE[-POLICY].acceptance.json; the
test itself fails only past a generous bound (a loaded 2-core CI machine
must not make it flaky), or when the page did not draw. A screenshot is left
in WORKDIR/CASE.png. Exit 77 (skipped) when chromium is not installed.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from html_cases import RUN_OPTIONS, SIZE_LIMIT, checker  # noqa: E402

STRICT_MS = 2000       # issue 18's acceptance
GENEROUS_MS = 15000    # what fails the test
failures = []

check = checker(failures)


def chromium(browser, url, work, *extra):
    with tempfile.TemporaryDirectory(dir=work) as profile:
        p = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                            "--disable-background-networking", "--disable-component-update", "--disable-sync",
                            "--hide-scrollbars", "--user-data-dir=" + profile, *extra, url],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, timeout=180)
    return p.stdout


def attributes(dom, element_id):
    m = re.search(r'<[a-z]+ id="%s"([^>]*)>' % element_id, dom)
    return dict(re.findall(r'(data-[a-z-]+)="([^"]*)"', m.group(1))) if m else {}


def main():
    progsim, work, case, program = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("SKIP: chromium is not installed (tools/install-deps.sh installs it)")
        sys.exit(77)
    os.makedirs(work, exist_ok=True)
    page = os.path.join(work, case + ".html")
    p = subprocess.run([progsim, "compare", "--html", page, *RUN_OPTIONS[case], *program],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 3):
        print(p.stdout, p.stderr)
        sys.exit("compare exited %d" % p.returncode)
    size = os.path.getsize(page)
    # zoom64: each policy's 8 MiB allreduce (the policies' runs differ in
    # length, so each has its own window); the others: the whole run.
    windows = {None: ""}
    if case == "zoom64":
        windows = {}
        for policy, t0, t1 in re.findall(r"program output of (\w+) \(stdout, 1 lines\):\n    .*ran from ([0-9.]+) s "
                                         r"to ([0-9.]+) s", p.stdout):
            t0, t1 = float(t0), float(t1)
            margin = (t1 - t0) * 0.1
            windows[policy] = "#t0=%.9f&t1=%.9f" % (t0 - margin, t1 + margin)
        check(len(windows) == 4, "each policy's program says when its 8 MiB allreduce ran")
    for policy, fragment in windows.items():
        load(browser, page, fragment, work, case, size, policy)
    if case == "overlap16":
        # The table sorts in the page: by overlap, highest first.
        dom = chromium(browser, "file://" + os.path.abspath(page) + "#sort=overlap&dir=desc", work, "--dump-dom")
        table = dom.split('id="compare-table"', 1)[1].split("</table>", 1)[0]
        order = re.findall(r"<tr><td class=\"text\">(\w+)</td>", table)
        print("sorted by overlap, descending:", order)
        check(order == ["ideal", "thread", "offload", "weak"], "the table sorts by overlap in the page: %s" % order)
        check('data-column="overlap" aria-sort="descending"' in table, "the sorted column is marked")
    print("FAILED" if failures else "PASSED")
    sys.exit(1 if failures else 0)


def load(browser, page, fragment, work, case, size, zoomed_policy):
    url = "file://" + os.path.abspath(page) + fragment
    dom = chromium(browser, url, work, "--dump-dom", "--window-size=1400,1200")
    body = re.search(r'<body[^>]*data-load-ms="([0-9.]+)"', dom)
    load_ms = float(body.group(1)) if body else None
    info = attributes(dom, "render-info")
    check(body is not None, "the page drew (data-load-ms on <body>)")
    verdict = "PASS" if load_ms is not None and load_ms < STRICT_MS and size <= SIZE_LIMIT[case] else "FAIL"
    print("ACCEPTANCE %s%s: %d bytes (bound %d), loaded and drawn in %s ms (issue 18: under %d ms): %s"
          % (case, " " + fragment if fragment else "", size, SIZE_LIMIT[case], load_ms, STRICT_MS, verdict))
    check(size <= SIZE_LIMIT[case], "page size %d over %d" % (size, SIZE_LIMIT[case]))
    check(load_ms is None or load_ms < GENEROUS_MS, "load time %s ms over the test's bound %d ms" % (load_ms, GENEROUS_MS))
    ticks = html.unescape(info.get("data-ticks", "")).split("|")
    check(len(ticks) >= 3, "the time axis has ticks: %s" % ticks)
    check(all(re.fullmatch(r"-?[0-9]+(\.[0-9]+)? (s|ms|\u00b5s|ns)", t) for t in ticks),
          "every tick is a number with a unit (no '2e-07 s'): %s" % ticks)
    panels = re.findall(r'<div class="policy-timeline" data-policy="(\w+)" data-outcome="(\w+)" data-end="([^"]+)"'
                        r'[^>]*>(.*?)</div></div>', dom, re.S)
    check(len(panels) == 4, "four timelines drawn (%d)" % len(panels))
    for policy, outcome, end, content in panels:
        times = [float(t) for t in re.findall(r'data-(?:time|complete|post)="([^"]+)"', content)]
        check(all(t <= float(end) for t in times), "%s: nothing drawn after its end (%s)" % (policy, end))
    if case == "deadlock":
        weak = [c for pol, out, e, c in panels if pol == "weak" and out == "deadlock"]
        check(len(weak) == 1, "weak's timeline shows its deadlock")
        check(int(info.get("data-arrows", "0")) > 0, "the whole 2-rank run shows its message arrows")
    if case == "scale64":
        check(info.get("data-arrows") == "0", "the whole 64-rank run draws no message arrows (too many to read)")
    if case == "zoom64":
        for policy, outcome, end, content in panels:
            if policy != zoomed_policy:
                continue
            posts = sorted(float(t) for t in re.findall(r'<line class="message"[^>]*data-post="([^"]+)"', content))
            # A round: messages posted together; the next round starts once they arrived.
            rounds = 1 + sum(1 for a, b in zip(posts, posts[1:]) if b - a > 1e-6) if posts else 0
            print("%s: %d message arrows in view, in %d rounds" % (policy, len(posts), rounds))
            check(rounds >= 6, "%s: the zoomed 8 MiB allreduce shows its rounds (%d)" % (policy, rounds))
        check(any(t.endswith(" s") or t.endswith("ms") for t in ticks), "zoomed ticks: %s" % ticks)
    name = case + ("-" + zoomed_policy if zoomed_policy else "")
    chromium(browser, url, work, "--screenshot=" + os.path.join(work, name + ".png"), "--window-size=1400,1800")
    check(os.path.exists(os.path.join(work, name + ".png")), "screenshot written")
    with open(os.path.join(work, name + ".acceptance.json"), "w") as out:
        json.dump({"case": name, "bytes": size, "load_ms": load_ms, "strict_ms": STRICT_MS, "verdict": verdict,
                   "fragment": fragment, "render_info": info}, out, indent=1)


if __name__ == "__main__":
    main()
