#!/bin/bash
# The generic hook's completeness (issue 19): every MPI procedure libprogsim
# exports is, for a recording, exactly one of
#   recorded     - libprogsim_trace defines it (a wrapper of traces/recorder/),
#   local/refused - listed in traces/UnrecordedCalls.def,
#   not modelled - listed in mpi_model/bindings/NotImplemented.cpp (ends the run).
# Fails naming each procedure that is none of them (a new binding nobody
# classified) or more than one (a stale or contradictory entry).
#   every_call_classified.sh LIBPROGSIM LIBPROGSIM_TRACE UNRECORDED_DEF NOT_IMPLEMENTED_CPP
set -u
exported() { nm -D --defined-only "$1" | awk '$3 ~ /^MPI_/ {print $3}' | sort -u; }
python3 - "$(exported "$1")" "$(exported "$2")" "$3" "$4" <<'PY'
import re, sys
exported = set(sys.argv[1].split())
recorded = set(sys.argv[2].split())
listed = {}
for m in re.finditer(r'^PROGSIM_(LOCAL_CALL|REFUSED_CALL)\((MPI_\w+)', open(sys.argv[3]).read(), re.M):
    listed.setdefault(m.group(2), []).append('local' if m.group(1) == 'LOCAL_CALL' else 'refused')
not_modelled = {'MPI_' + n for n in re.findall(r'^PROGSIM_NOT_IMPLEMENTED\((\w+)', open(sys.argv[4]).read(), re.M)}
problems = []
counts = {'recorded': 0, 'local': 0, 'refused': 0, 'not modelled': 0}
for name in sorted(exported | recorded | set(listed)):
    classes = (['recorded'] if name in recorded else []) + listed.get(name, []) + \
              (['not modelled'] if name in not_modelled else [])
    if name not in exported:
        problems.append(f'{name}: listed as {", ".join(classes)} but libprogsim does not export it')
    elif len(classes) != 1:
        problems.append(f'{name}: ' + ('in no class: record it (traces/recorder/) or list it in traces/UnrecordedCalls.def'
                                       if not classes else 'in several classes: ' + ', '.join(classes)))
    else:
        counts[classes[0]] += 1
print(f'{len(exported)} MPI procedures exported: ' + ', '.join(f'{v} {k}' for k, v in counts.items()))
for p in problems:
    print('FAIL:', p)
sys.exit(1 if problems else 0)
PY
