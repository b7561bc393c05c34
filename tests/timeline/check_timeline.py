#!/usr/bin/env python3
"""Timeline and HTML checks on the Bsend-then-sleep example (issue 7).

usage: check_timeline.py PROGSIM PROGRAM WORKDIR {chrome|paje|html|screenshot}

chrome      progsim run --timeline (Chrome JSON) under weak and ideal: rank 1's
            MPI_Recv is blocked until ~10 s under weak and ~0.7 ms under
            ideal; messages are matched flow arrows; two runs byte-identical.
paje        the same run in Paje: header, containers, states in time order.
html        progsim compare --html: the page's timeline data show rank 1
            blocked until ~10 s under weak and not under ideal, on one time
            axis; the page is self-contained (scripts inline, nothing fetched)
            and byte-identical on rerun.
screenshot  headless Chromium renders the page and the screenshot is not
            blank (exit 77, skipped, when chromium is not installed).
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)


def run(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        print(p.stdout.decode(), p.stderr.decode())
        sys.exit("command failed (%d): %s" % (p.returncode, " ".join(args)))
    return p.stdout


def near(value, target, tolerance):
    return abs(value - target) <= tolerance


def blocked_until(events, rank):
    """End (seconds) of the latest blocked interval of `rank`, or 0."""
    ends = [(e["ts"] + e["dur"]) / 1e6 for e in events
            if e.get("ph") == "X" and e.get("tid") == rank and e.get("cat") == "blocked"]
    return max(ends) if ends else 0.0


def chrome(progsim, program, work):
    for policy, until, tolerance in (("weak", 10.0007, 0.001), ("ideal", 0.0007, 0.0005)):
        files = []
        for k in ("a", "b"):
            path = os.path.join(work, "%s-%s.json" % (policy, k))
            run([progsim, "run", "-n", "2", "--progress", policy, "--timeline", path, program])
            files.append(open(path, "rb").read())
        check(files[0] == files[1], policy + ": two timelines differ")
        trace = json.loads(files[0])
        events = trace["traceEvents"]
        check(trace["otherData"]["policy"] == policy, policy + ": otherData.policy")
        b = blocked_until(events, 1)
        check(near(b, until, tolerance), "%s: rank 1 blocked until %.6f s, expected %.4f+-%g" % (policy, b, until, tolerance))
        recv = [e for e in events if e.get("ph") == "X" and e.get("tid") == 1 and e["name"] == "MPI_Recv"]
        check(len(recv) > 0, policy + ": rank 1 has MPI_Recv intervals")
        sleeping = [e for e in events if e.get("ph") == "X" and e.get("tid") == 0 and e.get("cat") == "sleeping"]
        check(len(sleeping) == 1 and near(sleeping[0]["dur"] / 1e6, 10.0, 1e-3), policy + ": rank 0 sleeps 10 s")
        starts = {e["id"]: e for e in events if e.get("ph") == "s"}
        ends = {e["id"]: e for e in events if e.get("ph") == "f"}
        check(len(starts) >= 1 and starts.keys() == ends.keys(), policy + ": every message arrow has both ends")
        big = [ends[i] for i in ends if starts[i]["args"]["bytes"] == 8 * 1024 * 1024]
        check(len(big) == 1 and near(big[0]["ts"] / 1e6, until, tolerance), policy + ": the 8 MiB message arrives at rank 1's wake-up")
        chunks = [e for e in events if e.get("ph") == "i" and e.get("cat") == "chunk"]
        executors = {e["args"]["executor"] for e in chunks}
        check(executors == ({"rank"} if policy == "weak" else {"immediate"}), policy + ": chunk executors " + str(executors))


def paje(progsim, program, work):
    path = os.path.join(work, "weak.paje")
    run([progsim, "run", "-n", "2", "--timeline", path, program])
    text = open(path).read()
    check(text.startswith("%EventDef PajeDefineContainerType 0"), "paje: header")
    check('4 0.000000000 rank1 CT_Rank job "rank 1"' in text, "paje: rank containers")
    check(re.search(r'^6 0\.0000\d+ ST_State rank1 "blocked: MPI_Recv"$', text, re.M) is not None, "paje: rank 1 blocked in MPI_Recv")
    times = [float(line.split()[1]) for line in text.splitlines() if line[:2] in ("6 ", "7 ", "8 ", "9 ")]
    check(times == sorted(times), "paje: events in time order")
    check(re.search(r"\n5 10\.00067\d* CT_Job job$", text.rstrip()) is not None, "paje: job ends at the end of the run")


def html_page(progsim, program, work, name="page.html"):
    path = os.path.join(work, name)
    run([progsim, "compare", "-n", "2", "--policies", "weak,ideal", "--html", path, program])
    return path


def html(progsim, program, work):
    pages = [open(html_page(progsim, program, work, n)).read() for n in ("a.html", "b.html")]
    check(pages[0] == pages[1], "html: two pages differ")
    page = pages[0]
    check(re.search(r'<(script|img|link)[^>]+(src|href)=', page) is None
          and re.search(r'https?://(?!www\.w3\.org/2000/svg)', page) is None,
          "html: self-contained (scripts inline, no external resource)")
    panels = re.findall(r'<div class="policy-timeline" data-policy="(\w+)"', page)
    check(panels == ["weak", "ideal"], "html: one timeline per policy, in order: " + str(panels))
    check(page.count('<svg id="time-axis"') == 1, "html: one shared time axis")
    data = json.loads(re.search(r'id="timeline-data">(.*?)</script>', page, re.S).group(1).replace("<\\/", "</"))
    for run, (policy, until, tolerance) in zip(data["runs"], (("weak", 10.0007, 0.001), ("ideal", 0.0, 0.001))):
        s = run["summary"]
        blocked = s["states"].index("blocked")
        ends = [i[3] for i in s["intervals"] if i[0] == 1 and i[1] == blocked]
        latest = max(ends) if ends else 0.0
        check(near(latest, until, tolerance), "html %s: rank 1 blocked until %.6f s, expected ~%g" % (policy, latest, until))
        check(len(s["messages"]) > 0, "html %s: messages" % policy)
        check(len(s["chunks"]) > 0, "html %s: progress chunks" % policy)
    check('data-policy="weak" data-outcome="completed"' in page, "html: outcome per policy")


def png_non_white(path):
    """Counts non-white pixels of an 8-bit RGB(A) PNG (no external modules)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), "unsupported PNG"
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    count = 0
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, channels):
            if line[x] < 240 or line[x + 1] < 240 or line[x + 2] < 240:
                count += 1
        previous = line
    return count, width, height


def screenshot(progsim, program, work):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("SKIP: chromium is not installed (tools/install-deps.sh installs it)")
        sys.exit(77)
    page = html_page(progsim, program, work)
    png = os.path.join(work, "page.png")
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--window-size=1400,1000", "--screenshot=" + png, "file://" + os.path.abspath(page)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
    check(os.path.exists(png), "screenshot written")
    if os.path.exists(png):
        count, width, height = png_non_white(png)
        print("screenshot %dx%d, %d non-white pixels" % (width, height, count))
        # The two 10 s bars (sleeping rank 0, blocked rank 1) alone cover ~2 x 800 x 17 pixels.
        check(count > 30000, "screenshot is not blank (%d non-white pixels)" % count)


def main():
    progsim, program, work, mode = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    {"chrome": chrome, "paje": paje, "html": html, "screenshot": screenshot}[mode](progsim, program, work)
    print("FAILED" if failures else "PASSED")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
