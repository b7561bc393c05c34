#!/usr/bin/env python3
"""progsim sweep (issue 22): specs, tables, resuming, determinism.

usage: sweep_command.py PROGSIM SOURCE_DIR CASE
  spec_errors: a bad spec is a usage error (exit 2) naming the field at fault
               (or the spec itself when it is a directory),
               before any point runs: among them a "cfg" key progsim does not
               know and a value its parameter refuses (out of range, not a
               number, not one of the choices), while the twin of valid keys
               and values is accepted; a value only SimGrid can check is
               refused by the point, which is named; a TOML spec that is not
               TOML names FILE:LINE:COLUMN, and one with a bad value gives the
               JSON spec's message after the value's FILE:LINE:COLUMN.
  slurm_script: --slurm --array-limit N writes "#SBATCH --array=LIST%N" (the
               pending points only), without it "#SBATCH --array=LIST"; sbatch
               is a stand-in (PROGSIM_SBATCH) that records its arguments.
  table:       2 programs x 4 policies x 3 eager thresholds (the issue's
               acceptance sweep): 24 rows in the spec's order; head-to-head 4 MiB
               sends deadlock below a 4 MiB eager threshold and complete above
               under every policy; each comparison's rows are exactly what
               `progsim compare --csv` prints for it; a second sweep into
               another directory gives byte-identical results.csv and
               results.json; the HTML pages are written; the same spec
               written in TOML gives byte-identical results too (the same
               point ids: they hash the parameters).
  resume:      a rerun runs only the points without a record: removed
               records, a removed point directory and a half-written report
               (no record) are run again, recorded points are not (their
               record files are untouched), and the results equal a clean run's.
  interrupt:   a sweep interrupted (SIGINT to its process group, as Ctrl-C)
               while a point runs leaves no record for that point; the rerun
               runs exactly the points without one and gives the clean run's
               results.
"""
import json
import re
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

progsim, source_dir, case = sys.argv[1:4]
examples = os.path.join(source_dir, "examples")
POLICIES = ["weak", "thread", "offload", "ideal"]
THRESHOLDS = [0, 65536, 8388608]


def fail(message):
    sys.exit("FAIL: " + message)


def sweep(*args, expect=0, **kwargs):
    r = subprocess.run([progsim, "sweep", *args], capture_output=True, text=True, **kwargs)
    if r.returncode != expect:
        fail(f"sweep {' '.join(args)} exited {r.returncode}, expected {expect}:\n{r.stdout}\n{r.stderr}")
    return r


def write_spec(directory, spec, name="spec.json"):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        json.dump(spec, f)
    return path


def toml_value(value):
    """VALUE (strings, numbers, lists, dicts of them) in TOML's notation."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value)  # a JSON string or number is a TOML one (basic string, \uXXXX escapes)


def write_toml_spec(directory, spec, name="spec.toml"):
    """SPEC as a TOML file: top-level keys, then each program as [[programs]], cfg as [cfg]."""
    lines = [f"{key} = {toml_value(value)}" for key, value in spec.items() if key not in ("programs", "cfg")]
    if "cfg" in spec:
        lines += ["", "[cfg]"] + [f"{json.dumps(k)} = {toml_value(v)}" for k, v in spec["cfg"].items()]
    for program in spec.get("programs", []):
        lines += ["", "[[programs]]"] + [f"{k} = {toml_value(v)}" for k, v in program.items()]
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    with open(path, "rb") as f:  # the test's own check: the file says what SPEC says
        if sys.version_info >= (3, 11) and __import__("tomllib").load(f) != spec:
            fail(f"{path} does not denote {spec}")
    return path


def read(path):
    with open(path, "rb") as f:
        return f.read()


def acceptance_spec():
    return {
        "programs": [
            {"name": "head_to_head", "source": os.path.join(examples, "unsafe_send_order/unsafe_send_order.c")},
            {"name": "bsend_sleep", "source": os.path.join(examples, "bsend_then_sleep/bsend_sleep.c")},
        ],
        "ranks": [2],
        "policies": POLICIES,
        "cfg": {"eager-threshold": THRESHOLDS},
    }


def csv_rows(path):
    lines = read(path).decode().splitlines()
    header = lines[0].split(",")
    return header, [dict(zip(header, line.split(","))) for line in lines[1:]]


tmp = tempfile.mkdtemp(prefix="progsim-sweep-test.")
try:
    if case == "spec_errors":
        good = acceptance_spec()
        cases = [
            ("not json", None, "not valid JSON"),
            ("no programs", {"ranks": [2]}, "programs: expected a non-empty array"),
            ("both", {**good, "programs": [{"source": good["programs"][0]["source"], "executable": "/bin/true"}]},
             "programs[0]: give exactly one of"),
            ("missing source", {**good, "programs": [{"source": "nowhere.c"}]}, "programs[0].source: no such file"),
            ("bad name", {**good, "programs": [{"name": "a/b", "source": good["programs"][0]["source"]}]},
             "programs[0].name: 'a/b'"),
            ("same name", {**good, "programs": [good["programs"][0], good["programs"][0]]},
             "programs[1].name: 'head_to_head' names two programs"),
            ("zero ranks", {**good, "ranks": [2, 0]}, "ranks[1]: expected a whole number of ranks"),
            ("ranks not a list", {**good, "ranks": 2}, "ranks: expected a non-empty array"),
            ("bad policy", {**good, "policies": ["weak", "lazy"]}, "policies[1]: "),
            ("missing platform", {**good, "platforms": ["none.xml"]}, "platforms[0]: no such file"),
            ("cfg not an object", {**good, "cfg": ["eager-threshold=0"]}, "cfg: expected an object"),
            ("cfg twice", {**good, "cfg": {"eager-threshold": [0, 0]}}, "cfg.eager-threshold[1]: '0' is given twice"),
            ("cfg bad value", {**good, "cfg": {"eager-threshold": [[1]]}}, "cfg.eager-threshold[0]: expected a number"),
            ("cfg unknown key", {**good, "cfg": {"eager-treshold": [0]}},
             "cfg.eager-treshold: unknown --cfg parameter 'eager-treshold' (progsim run --cfg help lists them)"),
            ("cfg out of range", {**good, "cfg": {"eager-threshold": [0, -1]}},
             "cfg.eager-threshold[1]: --cfg eager-threshold=-1: out of range (allowed: 0 to "),
            ("cfg not a number", {**good, "cfg": {"eager-threshold": [0], "thread-interval": ["fast"]}},
             "cfg.thread-interval[0]: --cfg thread-interval=fast: not a number"),
            ("cfg zero interval", {**good, "cfg": {"thread-interval": [0.001, 0]}},
             "cfg.thread-interval[1]: --cfg thread-interval=0: out of range"),
            ("cfg not a choice", {**good, "cfg": {"rendezvous": ["push", "sideways"]}},
             "cfg.rendezvous[1]: --cfg rendezvous=sideways: expected one of"),
            ("cfg SimGrid model", {**good, "cfg": {"network/model": ["CM02", "Bogus"]}},
             "cfg.network/model[1]: --cfg network/model=Bogus: not a network/model progsim runs on"),
            ("axis as option", {**good, "options": ["--progress", "weak"]},
             "options[0]: --progress is chosen by \"policies\""),
            ("typo", {**good, "rank": [2]}, "rank: unknown field"),
            ("program typo", {**good, "programs": [{"sources": "x.c"}]}, "programs[0].sources: unknown field"),
        ]
        for name, spec, expected in cases:
            path = os.path.join(tmp, "bad.json")
            with open(path, "w") as f:
                f.write("{ not json" if spec is None else json.dumps(spec))
            r = sweep(path, expect=2)
            if f"bad.json: {expected}" not in r.stderr:
                fail(f"{name}: the error does not say '{expected}':\n{r.stderr}")
            if os.path.exists(os.path.join(tmp, "bad.sweep")):
                fail(f"{name}: a refused spec left an output directory")
            print(f"ok: {name}: {r.stderr.strip()}")
        # A directory given as the spec opens as a stream and fails on the first
        # read: an input error naming it, not an internal error (exit 70 before).
        spec_dir = os.path.join(tmp, "spec_dir.json")
        os.mkdir(spec_dir)
        r = sweep(spec_dir, expect=2)
        if f"spec_dir.json: cannot read the sweep spec: is a directory" not in r.stderr:
            fail(f"a directory as the spec: the error does not say so:\n{r.stderr}")
        print(f"ok: a directory as the spec: {r.stderr.strip()}")
        # The valid twin of the cfg cases: every key known (one of another policy, one
        # of SimGrid's), every value in range; --list runs nothing and exits 0.
        twin = {**good, "cfg": {"eager-threshold": [0, 65536], "thread-interval": ["2us", 0.001],
                                "rendezvous": ["push", "pull"], "network/crosstraffic": ["0"]}}
        r = sweep("--list", write_spec(tmp, twin, "twin.json"))
        if len(r.stdout.splitlines()) != 2 * 4 * 2 * 2 * 2:
            fail(f"the valid cfg twin: {len(r.stdout.splitlines())} points listed, expected 64:\n{r.stdout}")
        print("ok: valid cfg keys and values are accepted (64 points)")
        # TOML: a syntax error names the file, line and column (toml11's); the value of
        # the wrong type gives the JSON spec's message, since both are checked as JSON.
        for name, text, expected in [
            ("unclosed array", 'ranks = [2,\n  4\npolicies = ["weak"]\n', "bad.toml:3:"),
            ("key twice", 'ranks = [2]\nranks = [4]\n', "bad.toml:2:"),
            ("date", 'ranks = [2]\noutput = 2026-11-27\n', "bad.toml:2:10: a TOML date or time"),
        ]:
            path = os.path.join(tmp, "bad.toml")
            with open(path, "w") as f:
                f.write(text)
            r = sweep(path, expect=2)
            if expected not in r.stderr:
                fail(f"TOML {name}: the error does not say '{expected}':\n{r.stderr}")
            print(f"ok: TOML {name}: {r.stderr.strip()}")
        # The TOML spec's error is the JSON spec's, with the line and column of the value
        # at fault (write_toml_spec: the top-level keys first, one a line, then a blank
        # line and [cfg] on line 4, its keys from line 5).
        for name, change, line in [("ranks a string", {"ranks": "four"}, 1), ("rank a string", {"ranks": [2, "four"]}, 1),
                                   ("cfg twice", {"cfg": {"eager-threshold": [0, 0]}}, 5),
                                   ("cfg out of range", {"cfg": {"eager-threshold": [0, 65536, -1]}}, 5),
                                   ("cfg unknown key", {"cfg": {"eager-threshold": [0], "bogus": [1]}}, 6),
                                   ("typo", {"rank": [2]}, 3)]:
            spec = {**good, **change}
            errors = [sweep(write(tmp, spec, "bad" + suffix), expect=2).stderr.replace("bad" + suffix, "SPEC")
                      for suffix, write in [(".json", write_spec), (".toml", write_toml_spec)]]
            located = re.sub(r"SPEC:(\d+):\d+: ", "SPEC: ", errors[1])
            at = re.search(r"SPEC:(\d+):\d+: ", errors[1])
            if errors[0] != located or "SPEC: " not in errors[0] or not at or int(at.group(1)) != line:
                fail(f"TOML {name}: not the JSON spec's error at line {line}:\n{errors[1]}--- JSON:\n{errors[0]}")
            print(f"ok: TOML {name}: the JSON spec's error at its line: {errors[1].strip()}")
        # Values the spec cannot check (SimGrid's keys): the run refuses them, and the
        # point says so.
        spec = {**good, "programs": good["programs"][:1], "policies": ["weak"],
                "cfg": {"network/crosstraffic": ["maybe"]}}
        r = sweep("--jobs", "1", write_spec(tmp, spec), expect=2)
        if "network/crosstraffic=maybe: not a boolean" not in r.stderr or "point head_to_head-n2-weak-" not in r.stderr:
            fail(f"a refused --cfg value is not reported with its point:\n{r.stderr}")
        print("ok: refused cfg value:", r.stderr.strip().splitlines()[0])
        r = sweep("--point", "6", write_spec(tmp, {**good, "policies": ["weak"]}), expect=2)
        if "--point 6: the spec has 6 points (0 to 5)" not in r.stderr:
            fail(f"--point out of range: {r.stderr}")
        for args in [["--wait"], ["--array-limit", "2"]]:
            r = sweep(*args, write_spec(tmp, good), expect=2)
            if "--wait, --array-limit and --sbatch-args go with --slurm" not in r.stderr:
                fail(f"{args[0]} without --slurm: {r.stderr}")
        r = sweep("--slurm", "--array-limit", "0", write_spec(tmp, good), expect=2)
        if "--array-limit 0: expected a whole number from 1" not in r.stderr:
            fail(f"--array-limit 0: {r.stderr}")
    elif case == "slurm_script":
        spec = write_spec(tmp, {**acceptance_spec(), "programs": acceptance_spec()["programs"][:1]})
        fake = os.path.join(tmp, "sbatch")
        with open(fake, "w") as f:
            f.write('#!/bin/sh\necho "$@" > "$(dirname "$0")/sbatch-args"\necho 4242\n')
        os.chmod(fake, 0o755)
        env = {**os.environ, "PROGSIM_SBATCH": fake}
        script = os.path.join(tmp, "spec.sweep", "slurm", "sweep.sbatch")

        def array_line():
            lines = [l for l in read(script).decode().splitlines() if l.startswith("#SBATCH --array")]
            if len(lines) != 1:
                fail(f"expected one #SBATCH --array line in {script}:\n{read(script).decode()}")
            return lines[0]

        sweep("--slurm", spec, env=env)
        if array_line() != "#SBATCH --array=0-11":
            fail(f"without --array-limit: {array_line()}, expected #SBATCH --array=0-11")
        sweep("--slurm", "--array-limit", "3", spec, env=env)
        if array_line() != "#SBATCH --array=0-11%3":
            fail(f"--array-limit 3: {array_line()}, expected #SBATCH --array=0-11%3")
        if read(os.path.join(tmp, "sbatch-args")).decode().split() != ["--parsable", script]:
            fail(f"sbatch's arguments: {read(os.path.join(tmp, 'sbatch-args'))}")
        sweep("--point", "4", spec)  # complete: not submitted again
        sweep("--slurm", "--array-limit", "2", spec, env=env)
        if array_line() != "#SBATCH --array=0-3,5-11%2":
            fail(f"point 4 complete, --array-limit 2: {array_line()}, expected #SBATCH --array=0-3,5-11%2")
        print("ok: #SBATCH --array=0-11, 0-11%3, 0-3,5-11%2")
    elif case == "table":
        spec = write_spec(tmp, acceptance_spec())
        out1, out2 = os.path.join(tmp, "one"), os.path.join(tmp, "two")
        r = sweep("--jobs", "2", "--output", out1, spec)
        if "24 points, 24 to run" not in r.stderr:
            fail(f"expected 24 points to run:\n{r.stderr}")
        header, rows = csv_rows(os.path.join(out1, "results.csv"))
        if header[:6] != ["id", "program", "args", "ranks", "policy", "platform"] or header[6] != "eager-threshold" \
                or header[7] != "outcome":
            fail(f"unexpected CSV header {header}")
        if len(rows) != 24:
            fail(f"{len(rows)} rows, expected 24")
        k = 0
        for program in ["head_to_head", "bsend_sleep"]:
            for threshold in THRESHOLDS:
                for policy in POLICIES:
                    row = rows[k]
                    k += 1
                    if (row["program"], row["eager-threshold"], row["policy"]) != (program, str(threshold), policy):
                        fail(f"row {k}: {row['program']} {row['eager-threshold']} {row['policy']}, expected the "
                             f"spec's order ({program} {threshold} {policy})")
                    expected = "completed"
                    if program == "head_to_head" and threshold < 4 * 1024 * 1024:
                        expected = "deadlock"
                    if row["outcome"] != expected:
                        fail(f"{program} {policy} eager-threshold={threshold}: {row['outcome']}, expected {expected}")
        # Each comparison is compare's: the same cells after the parameters.
        for program, source in [("head_to_head", "unsafe_send_order/unsafe_send_order.c"),
                                ("bsend_sleep", "bsend_then_sleep/bsend_sleep.c")]:
            for threshold in THRESHOLDS:
                c = subprocess.run([progsim, "compare", "--csv", "--policies", ",".join(POLICIES), "-n", "2", "--cfg", f"eager-threshold={threshold}",
                                    os.path.join(out1, "programs", program)], capture_output=True, text=True)
                compare_lines = c.stdout.splitlines()
                sweep_lines = [line for line in read(os.path.join(out1, "results.csv")).decode().splitlines()[1:]
                               if line.split(",")[1] == program and line.split(",")[6] == str(threshold)]
                got = [line.split(",")[4] + "," + ",".join(line.split(",")[7:]) for line in sweep_lines]
                if got != compare_lines[1:]:
                    fail(f"{program} eager-threshold={threshold}: the sweep's rows differ from compare's:\n"
                         + "\n".join(got) + "\n--- compare:\n" + "\n".join(compare_lines[1:]))
        print("ok: every comparison's rows equal progsim compare --csv's")
        bsend = {r["policy"]: float(r["blocked_in_mpi"]) for r in rows
                 if r["program"] == "bsend_sleep" and r["eager-threshold"] == "65536"}
        if not bsend["weak"] > 9 > bsend["ideal"]:
            fail(f"bsend_sleep blocked time: weak {bsend['weak']}, ideal {bsend['ideal']} (expected > 9 and < 9)")
        results = json.loads(read(os.path.join(out1, "results.json")))
        if len(results) != 24 or results[0]["cfg"] != {"eager-threshold": "0"} or "simulated_time" not in results[0]:
            fail(f"unexpected results.json: {results[0]}")
        html = read(os.path.join(out1, "results.html")).decode()
        pages = sorted(os.listdir(os.path.join(out1, "html")))
        if len(pages) != 6 or html.count('<a href="html/') != 6:
            fail(f"expected 6 comparison pages: {pages}")
        page = read(os.path.join(out1, "html", pages[0])).decode()
        if "<svg" not in page or "latency_cdf" not in page and "Latency" not in page:
            fail("a comparison page has no figures")
        # Determinism: another directory, another pool size, the same bytes.
        sweep("--jobs", "1", "--output", out2, spec)
        for name in ["results.csv", "results.json"]:
            if read(os.path.join(out1, name)) != read(os.path.join(out2, name)):
                fail(f"{name} differs between two sweeps of the same spec")
        r = sweep("--output", out1, spec)
        if "24 points, 0 to run" not in r.stderr:
            fail(f"a complete sweep reran points:\n{r.stderr}")
        # The same spec in TOML: the same points (ids), the same bytes.
        out3 = os.path.join(tmp, "three")
        toml_spec = write_toml_spec(tmp, acceptance_spec())
        if sweep("--list", toml_spec).stdout.split() != sweep("--list", spec).stdout.split():
            fail("the TOML spec's points differ from the JSON spec's")
        sweep("--jobs", "2", "--output", out3, toml_spec)
        for name in ["results.csv", "results.json"]:
            if read(os.path.join(out1, name)) != read(os.path.join(out3, name)):
                fail(f"{name} differs between the JSON spec and the same spec in TOML")
        print("ok: 24 rows; byte-identical results.csv and results.json, from JSON and from TOML; "
              "a complete sweep runs nothing")
    elif case == "resume":
        spec_data = acceptance_spec()
        spec_data["programs"] = spec_data["programs"][:1]
        spec_data["policies"] = ["weak", "ideal"]
        spec = write_spec(tmp, spec_data)
        ref, out = os.path.join(tmp, "ref"), os.path.join(tmp, "out")
        sweep("--output", ref, spec)
        sweep("--output", out, spec)
        listing = sweep("--list", "--output", out, spec).stdout.splitlines()
        ids = [line.split()[1] for line in listing]
        if len(ids) != 6 or any(line.split()[2] != "complete" for line in listing):
            fail(f"--list after a complete sweep:\n{listing}")
        points = os.path.join(out, "points")
        os.unlink(os.path.join(points, ids[1], "point.json"))           # a record lost
        shutil.rmtree(os.path.join(points, ids[3]))                      # a point never started
        os.unlink(os.path.join(points, ids[4], "point.json"))           # killed while writing its report
        with open(os.path.join(points, ids[4], "run.json"), "w") as f:
            f.write('{"outcome": "compl')
        kept = {i: os.stat(os.path.join(points, i, "point.json")).st_mtime_ns for i in (ids[0], ids[2], ids[5])}
        listing = sweep("--list", "--output", out, spec).stdout.splitlines()
        pending = [line.split()[1] for line in listing if line.split()[2] == "pending"]
        if pending != [ids[1], ids[3], ids[4]]:
            fail(f"pending points {pending}, expected {[ids[1], ids[3], ids[4]]}")
        r = sweep("--gather", "--output", out, spec, expect=1)
        if "3 points have no result yet" not in r.stderr or read(os.path.join(out, "results.csv")).count(b"not run") != 3:
            fail(f"--gather with 3 points missing:\n{r.stderr}")
        time.sleep(0.01)
        r = sweep("--output", out, spec)
        if "6 points, 3 to run" not in r.stderr:
            fail(f"the rerun did not run exactly the 3 points without a record:\n{r.stderr}")
        for i, mtime in kept.items():
            if os.stat(os.path.join(points, i, "point.json")).st_mtime_ns != mtime:
                fail(f"point {i} was recorded again although it was complete")
        for name in ["results.csv", "results.json"]:
            if read(os.path.join(out, name)) != read(os.path.join(ref, name)):
                fail(f"{name} after resuming differs from a clean run's")
        # A spec grown by a value keeps the points it had.
        spec_data["cfg"]["eager-threshold"].append(1024)
        r = sweep("--output", out, write_spec(tmp, spec_data))
        if "8 points, 2 to run" not in r.stderr:
            fail(f"a grown spec did not run only its new points:\n{r.stderr}")
        print("ok: only the points without a record were run again; results equal a clean run's")
    elif case == "interrupt":
        spec = write_spec(tmp, {"programs": [{"source": os.path.join(source_dir, "tests/sweep/slow_barrier.c")}],
                                "ranks": [2], "policies": POLICIES, "cfg": {"eager-threshold": [0, 65536]}})
        ref, out = os.path.join(tmp, "ref"), os.path.join(tmp, "out")
        sweep("--jobs", "2", "--output", ref, spec)
        p = subprocess.Popen([progsim, "sweep", "--jobs", "1", "--output", out, spec], start_new_session=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        recorded = 0
        while time.time() < deadline and recorded == 0:
            time.sleep(0.02)
            points = os.path.join(out, "points")
            recorded = sum(os.path.exists(os.path.join(points, d, "point.json"))
                           for d in (os.listdir(points) if os.path.isdir(points) else []))
        time.sleep(0.1)  # the next point is running
        os.killpg(p.pid, signal.SIGINT)
        p.communicate(timeout=60)
        # The point processes of the group end too (a run in user code within a second).
        for _ in range(300):
            try:
                os.killpg(p.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            fail("processes of the interrupted sweep are still running after 15 s")
        listing = sweep("--list", "--output", out, spec).stdout.splitlines()
        done = [line.split()[1] for line in listing if line.split()[2] == "complete"]
        if not 0 < len(done) < 8:
            fail(f"{len(done)} points recorded after the interruption, expected some but not all 8")
        for d in os.listdir(os.path.join(out, "points")):
            record = os.path.join(out, "points", d, "point.json")
            if os.path.exists(record) and json.loads(read(record))["exit_status"] != 0:
                fail(f"point {d} was recorded with exit status {json.loads(read(record))['exit_status']}")
        r = sweep("--jobs", "2", "--output", out, spec)
        if f"8 points, {8 - len(done)} to run" not in r.stderr:
            fail(f"the rerun after the interruption ({len(done)} recorded):\n{r.stderr}")
        for name in ["results.csv", "results.json"]:
            if read(os.path.join(out, name)) != read(os.path.join(ref, name)):
                fail(f"{name} after an interrupted sweep and a rerun differs from a clean run's")
        print(f"ok: interrupted with {len(done)} of 8 points recorded; the rerun ran the rest")
    else:
        fail("unknown case " + case)
finally:
    shutil.rmtree(tmp, ignore_errors=True)
