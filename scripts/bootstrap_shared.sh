#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What both toolchains need beyond ROS 2 (the PyPI venv and a sourced ROS 2 alike), shared by
# both distros: the Debian packages of requirements/debian.txt (installed when missing, as
# root) and the npm packages of requirements/npm (`npm ci` into .venv/npm), which the browser
# test of foxglove_live needs. Called by bootstrap.sh and, with a ROS 2 sourced, by
# workspace.sh. Idempotent: with nothing changed it only checks the packages and a stamp.
#
#   scripts/bootstrap_shared.sh
set -euo pipefail
WS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

mkdir -p "$WS_ROOT/.venv"
touch "$WS_ROOT/.venv/COLCON_IGNORE"

# One run at a time (both distros may bootstrap at once).
exec 8>"$WS_ROOT/.venv/.bootstrap-shared.lock"
flock 8

# A package of requirements/debian.txt is present when dpkg has it installed or a command of
# its name is on PATH. Missing ones are installed as root (the pinned version when apt has
# it, else apt's candidate with a warning); without root the workspace still builds, but the
# browser test cannot run (it fails and says why).
deb_missing=()
while read -r line; do
  line="${line%%#*}"; line="${line//[[:space:]]/}"
  [ -n "$line" ] || continue
  name="${line%%=*}"
  if ! dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q 'install ok installed' \
     && ! command -v "$name" >/dev/null 2>&1; then
    deb_missing+=("$line")
  fi
done < "$WS_ROOT/requirements/debian.txt"
if [ "${#deb_missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "bootstrap: error: missing Debian packages ${deb_missing[*]%%=*} (as root: apt-get install ${deb_missing[*]%%=*}); the browser test of foxglove_live cannot run without them" >&2
  else
    echo "bootstrap: installing Debian packages ${deb_missing[*]%%=*}" >&2
    apt-get update -qq || echo "bootstrap: warning: apt-get update failed" >&2
    deb_args=()
    for pkg in "${deb_missing[@]}"; do
      name="${pkg%%=*}" version="${pkg#*=}"
      if apt-cache madison "$name" 2>/dev/null | awk -F'|' '{gsub(/ /, "", $2); print $2}' \
         | grep -qxF "$version"; then
        deb_args+=("$name=$version")
      else
        candidate="$(apt-cache policy "$name" 2>/dev/null | awk '/Candidate:/ {print $2}')"
        echo "bootstrap: warning: apt has no $name $version; installing its candidate ${candidate:-(none)}" >&2
        deb_args+=("$name")
      fi
    done
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${deb_args[@]}" >/dev/null \
      || echo "bootstrap: error: apt-get install ${deb_args[*]} failed; the browser test of foxglove_live cannot run" >&2
  fi
fi

# npm packages (requirements/npm, exact versions in its package-lock.json) into .venv/npm;
# install scripts off (none is needed: esbuild's binary comes as a package, puppeteer-core
# downloads no browser), guarded by their own stamp.
NPM_REQ="$WS_ROOT/requirements/npm"
NPM_DIR="$WS_ROOT/.venv/npm"
npm_want="$(cat "$NPM_REQ/package.json" "$NPM_REQ/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [ ! -f "$NPM_DIR/.npm-stamp" ] || [ "$(cat "$NPM_DIR/.npm-stamp")" != "$npm_want" ]; then
  if ! command -v npm >/dev/null 2>&1; then
    echo "bootstrap: error: npm not found (requirements/debian.txt); the browser test of foxglove_live cannot run" >&2
  else
    echo "bootstrap: npm ci of requirements/npm into $NPM_DIR" >&2
    mkdir -p "$NPM_DIR"
    cp "$NPM_REQ/package.json" "$NPM_REQ/package-lock.json" "$NPM_DIR/"
    if (cd "$NPM_DIR" && export PUPPETEER_SKIP_DOWNLOAD=1 npm_config_update_notifier=false \
        && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >/dev/null); then
      echo "$npm_want" > "$NPM_DIR/.npm-stamp"
    else
      echo "bootstrap: error: npm ci in $NPM_DIR failed; the browser test of foxglove_live cannot run" >&2
    fi
  fi
fi
exec 8>&-
