#!/usr/bin/env python3
"""Interrupting a rank busy in the C library never hangs progsim.

usage: interrupt_repeat_test.py PROGSIM PROGRAM MODE SCHEDULE RUNS [--sanitized]

Runs `progsim run -n 2 --report R --timeline T PROGRAM MODE MARKER` (the
interrupt_busy program: rank 0 loops on malloc/free, on fprintf(stdout), or
in a thread of its own on malloc/free) RUNS times. Each run waits until the
busy thread announced itself (MARKER), waits 0-100 ms more (so that the
signals fall at different points of the loop), then, by SCHEDULE:
  twice   SIGINT, and SIGINT again 50 ms later (a user's double Ctrl-C)
  grace   one SIGINT; no rank reaches a safe point, the grace period ends it
  hup     SIGHUP, and SIGINT 50 ms later (the crash handler's way for
          another signal that ends a process, sent by another process)
  limit   nothing: --host-time-limit 0.2 ends the run (exit 142)
  blocked progsim's stdout is a pipe nobody reads (MODE flood: progsim
          blocks forwarding the rank's lines), one SIGINT after 0.3 s: no
          safe point, no rank to divert, an ending that cannot write its
          message: the minimal ending, 6 s after the signal (the report must
          be the minimal one)
  thrice  as blocked, with three SIGINTs 0.2 s apart: the third ends the run
          at once (within 2 s of the first), with the minimal report
With MODE thread_malloc the signals go to the program's busy thread
(tgkill), not to the process. Each run must end within 10 s of the first
signal (a hang fails the test), with the status 128 + the first signal, the
message on stderr, a report that is valid JSON with outcome "interrupted"
and that status, a timeline that is valid JSON marked partial, and an
empty TMPDIR. The test stops at the first failing run. Before the fix, an
ending from inside a signal handler waited forever for the allocator's lock
(or crashed on a heap it had damaged) in some of the runs.
"""
import ctypes
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

BOUND = 10.0  # host seconds from the first signal to progsim's exit

libc = ctypes.CDLL(None, use_errno=True)
SYS_tgkill = 234  # x86-64


def send(pid, tid, sig):
    if tid:
        libc.syscall(SYS_tgkill, pid, tid, sig)
    else:
        os.kill(pid, sig)


def wait_for(path, p, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if os.path.exists(path):
            with open(path) as f:
                text = f.read().strip()
            if text:
                return int(text)
        if p.poll() is not None:
            return None
        time.sleep(0.01)
    return None


def one_run(progsim, program, mode, schedule, work, index, rng):
    """Returns a list of failures (empty: the run passed) and its duration."""
    tmpdir = os.path.join(work, "tmp%d" % index)
    os.mkdir(tmpdir)
    report = os.path.join(work, "report%d.json" % index)
    timeline = os.path.join(work, "timeline%d.json" % index)
    marker = os.path.join(work, "busy%d" % index)
    args = [progsim, "run", "-n", "2", "--report", report, "--timeline", timeline]
    if schedule == "limit":
        args += ["--host-time-limit", "0.2"]
    args += [program, mode, marker]
    first = {"twice": signal.SIGINT, "grace": signal.SIGINT, "hup": signal.SIGHUP, "limit": signal.SIGALRM,
             "blocked": signal.SIGINT, "thrice": signal.SIGINT}[schedule]
    env = dict(os.environ, TMPDIR=tmpdir)
    unread = os.pipe() if schedule in ("blocked", "thrice") else None
    p = subprocess.Popen(args, stdout=unread[1] if unread else subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    if unread:
        os.close(unread[1])
    try:
        return checked_run(p, mode, schedule, marker, report, timeline, tmpdir, first, index, rng)
    finally:
        if unread:
            os.close(unread[0])


def checked_run(p, mode, schedule, marker, report, timeline, tmpdir, first, index, rng):
    failures = []
    tid = wait_for(marker, p, 30)
    if tid is None:
        p.kill()
        p.communicate()
        return ["run %d: the busy rank never announced itself" % index], 0
    target = tid if mode == "thread_malloc" else 0
    blocked = schedule in ("blocked", "thrice")
    time.sleep(0.3 if blocked else rng.uniform(0, 0.1))
    start = time.monotonic()
    if schedule != "limit":
        send(p.pid, target, first)
    if schedule in ("twice", "hup"):
        time.sleep(0.05)
        send(p.pid, target, signal.SIGINT)
    if schedule == "thrice":
        for _ in range(2):
            time.sleep(0.2)
            send(p.pid, target, signal.SIGINT)
    try:
        _, err = p.communicate(timeout=BOUND + (0.2 if schedule == "limit" else 0))
    except subprocess.TimeoutExpired:
        # Hung: leave a trace of where, then end it.
        stacks = subprocess.run(["gdb", "-p", str(p.pid), "-batch", "-ex", "thread apply all bt 12"],
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60).stdout \
            if os.path.exists("/usr/bin/gdb") else b""
        p.kill()
        p.communicate()
        print(stacks.decode(errors="replace")[-6000:])
        return ["run %d: progsim did not end within %g s of the first signal (hung)" % (index, BOUND)], BOUND
    took = time.monotonic() - start
    err = err.decode(errors="replace")
    expected = 128 + first
    if p.returncode != expected:
        failures.append("run %d: exit status %d, expected %d; stderr:\n%s" % (index, p.returncode, expected, err[-3000:]))
    words = "host time limit of 0.2 s" if schedule == "limit" else "interrupted by %s" % signal.Signals(first).name
    if ("progsim: " + words) not in err:
        failures.append("run %d: no 'progsim: %s' on stderr:\n%s" % (index, words, err[-3000:]))
    try:
        data = json.load(open(report))
        if data.get("outcome") != "interrupted" or data.get("exit_status") != expected:
            failures.append("run %d: report outcome %r, exit_status %r" % (index, data.get("outcome"),
                                                                          data.get("exit_status")))
        if blocked and "partial" not in data:
            failures.append("run %d: not the minimal report: %r" % (index, data))
        if schedule == "thrice" and ("third signal" not in data.get("partial", "") or took > 2):
            failures.append("run %d: not ended at once by the third signal (%.2f s): %r" % (index, took, data))
    except (OSError, ValueError) as e:
        failures.append("run %d: the report is not readable JSON: %s" % (index, e))
    try:
        other = json.load(open(timeline)).get("otherData", {})
        if other.get("partial") is not True or other.get("outcome") != "interrupted":
            failures.append("run %d: timeline not marked partial and interrupted: %r" % (index, other))
    except (OSError, ValueError) as e:
        failures.append("run %d: the timeline is not readable JSON: %s" % (index, e))
    left = os.listdir(tmpdir)
    if left:
        failures.append("run %d: left in TMPDIR: %s" % (index, left))
    return failures, took


def main():
    progsim, program, mode, schedule, runs = sys.argv[1:6]
    runs = int(runs)
    rng = random.Random(7)  # the delays differ from run to run, not from test to test
    worst = 0.0
    minimal = 0
    with tempfile.TemporaryDirectory(prefix="progsim-test-interrupt-repeat-") as work:
        for i in range(runs):
            failures, took = one_run(progsim, program, mode, schedule, work, i, rng)
            worst = max(worst, took)
            if failures:
                for f in failures:
                    print("FAIL: " + f)
                print("FAILED after %d of %d runs" % (i + 1, runs))
                return 1
            try:
                if "partial" in json.load(open(os.path.join(work, "report%d.json" % i))):
                    minimal += 1
            except (OSError, ValueError):
                pass
    print("ok: %d runs, each ended within %.2f s of the first signal (bound %g s); "
          "%d ended with the minimal report" % (runs, worst, BOUND, minimal))
    print("PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
