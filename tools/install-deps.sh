#!/usr/bin/env bash
# Installs the Debian bookworm packages progsim needs, if any is missing.
# (smpicc and smpirun, the peer of the benchmarks, come with libsimgrid-dev; "simgrid" is
# only a name it provides, which dpkg never reports as installed. pajeng: its pj_dump checks
# the Paje timelines in the tests. OTF2: libotf2-trace-dev for --otf2 and OTF2 replay,
# otf2-tools (otf2-print) and python3-otf2 (OTF2's writer) for their tests. slurm-wlm and munge:
# the sweep's test starts a single-node Slurm on localhost, docs/sweep.md. libtoml11-dev:
# the sweep's TOML specs.)
set -euo pipefail
packages=(build-essential cmake pkg-config libsimgrid-dev libboost-context-dev
          nlohmann-json3-dev libtoml11-dev libgtest-dev python3 chromium groff-base ccache pajeng
          libotf2-trace-dev otf2-tools python3-otf2 slurm-wlm munge)
missing=()
for p in "${packages[@]}"; do
  [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) == "install ok installed" ]] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
