#!/usr/bin/env python3
"""Whether a recorded run and its replay agree: two JSON values (jq's
summaries of the two reports) flattened to lists, equal element by element,
floats within 1e-12 (simulated seconds). Prints "yes" or "no".
Used by roundtrip.sh and roundtrip_program.sh.
Usage: same_report_values.py JSON_A JSON_B"""
import json
import sys


def flat(x):
    return sum((flat(y) for y in x), []) if isinstance(x, list) else [x]


a, b = flat(json.loads(sys.argv[1])), flat(json.loads(sys.argv[2]))
ok = len(a) == len(b) and all(x == y or (isinstance(x, float) and isinstance(y, (int, float)) and abs(x - y) <= 1e-12)
                              for x, y in zip(a, b))
print("yes" if ok else "no")
