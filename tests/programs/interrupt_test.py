#!/usr/bin/env python3
"""SIGINT / SIGTERM sent to progsim while it simulates (issue 14).

usage: interrupt_test.py PROGSIM FAULTS_PROGRAM SIGNAL FAULT [COMMAND]

Runs `progsim run -n 2 FAULTS_PROGRAM FAULT iprobe` (rank 0 sleeps forever,
hang, or spins in user code, spin; rank 1 loops on MPI_Iprobe), sends
SIGNAL (INT, TERM, or another that ends a process: HUP, USR1) after 0.7 s
of host time, and checks: exit status 128+signal, outcome "interrupted" in
the report, the message on stderr (with FAULT=hang, naming rank 1 in
MPI_Iprobe: the run ended at its safe point), the timeline written and
marked partial, and an empty TMPDIR. With
COMMAND=compare the signal goes to `progsim compare` (which runs progsim
itself): exit 128+signal and an empty TMPDIR.
"""
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL: " + message)
    else:
        print("ok: " + message)


def main():
    progsim, program, signame, fault = sys.argv[1:5]
    command = sys.argv[5] if len(sys.argv) > 5 else "run"
    sig = getattr(signal, "SIG" + signame)
    with tempfile.TemporaryDirectory(prefix="progsim-test-interrupt-") as work:
        tmpdir = os.path.join(work, "tmp")
        os.mkdir(tmpdir)
        report = os.path.join(work, "report.json")
        timeline = os.path.join(work, "timeline.json")
        if command == "compare":
            args = [progsim, "compare", "-n", "2", program, fault, "iprobe"]
        else:
            args = [progsim, "run", "-n", "2", "--report", report, "--timeline", timeline, program, fault, "iprobe"]
        env = dict(os.environ, TMPDIR=tmpdir)
        p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        time.sleep(0.7)
        check(p.poll() is None, "progsim still runs after 0.7 s")
        p.send_signal(sig)
        try:
            out, err = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            check(False, "progsim ended within 20 s of the signal")
        err = err.decode(errors="replace")
        print("--- stderr\n" + err + "--- exit status %d" % p.returncode)
        check(p.returncode == 128 + sig, "exit status %d, expected %d" % (p.returncode, 128 + sig))
        left = os.listdir(tmpdir)
        check(left == [], "nothing left in TMPDIR: %s" % left)
        if command == "run":
            check("progsim: interrupted by SIG%s at t=" % signame in err, "the message names the signal and the time")
            if fault == "hang":
                # Ended at rank 1's next safe point (MPI_Iprobe), never from
                # inside the signal handler, which may have interrupted the
                # allocator (its lock held: the report's allocations hung).
                # Every signal: SIGHUP's handler is the CrashHandler's.
                check(re.search(r"interrupted by SIG%s at t=\S+ s \(rank 1 in MPI_Iprobe\)" % signame, err),
                      "ended at a rank's safe point, not in the handler")
            try:
                data = json.load(open(report))
            except (OSError, ValueError) as e:
                data = {}
                check(False, "the report is readable JSON: %s" % e)
            check(data.get("outcome") == "interrupted", "report outcome %r" % data.get("outcome"))
            check(data.get("exit_status") == 128 + sig, "report exit_status %r" % data.get("exit_status"))
            try:
                other = json.load(open(timeline)).get("otherData", {})
            except (OSError, ValueError) as e:
                other = {}
                check(False, "the timeline is readable JSON: %s" % e)
            check(other.get("partial") is True and other.get("outcome") == "interrupted",
                  "timeline marked partial: %r" % other)
    print("FAILED" if failures else "PASSED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
