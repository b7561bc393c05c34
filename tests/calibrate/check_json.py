#!/usr/bin/env python3
"""Checks values in a JSON file (progsim calibrate's PREFIX.json):
   check_json.py FILE /json/pointer=VALUE ... ; a VALUE of the form ~X%Y
   is a number within Y percent of X; the VALUE "absent" checks that nothing
   is at that pointer."""
import json
import sys


def at(doc, pointer):
    for part in pointer.strip("/").split("/"):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def main():
    doc = json.load(open(sys.argv[1]))
    failures = 0
    for check in sys.argv[2:]:
        pointer, expected = check.split("=", 1)
        try:
            actual = at(doc, pointer)
        except (KeyError, IndexError, ValueError):
            print(f"{pointer}: absent" + (" (ok)" if expected == "absent" else ""))
            failures += expected != "absent"
            continue
        if expected.startswith("~"):
            value, percent = expected[1:].split("%")
            ok = abs(float(actual) - float(value)) <= abs(float(value)) * float(percent) / 100
        else:
            ok = json.dumps(actual) == expected or str(actual) == expected
        print(f"{pointer} = {json.dumps(actual)} ({'ok' if ok else 'expected ' + expected})")
        failures += not ok
    sys.exit(1 if failures else 0)


main()
