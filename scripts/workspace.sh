# SPDX-License-Identifier: Apache-2.0
# Shared set-up for the workspace scripts; source it, do not run it.
#
# Two toolchains:
#  - "venv"   (default): ROS 2 from PyPI wheels in .venv/<distro>, created by bootstrap.sh.
#             Distro chosen by ROS_DISTRO (kilted | jazzy); default kilted.
#  - "system": a ROS 2 install the user has already sourced (AMENT_PREFIX_PATH set and rclpy
#             importable). Plain colcon on it, no venv. Force either with WS_TOOLCHAIN.
set -euo pipefail

WS_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WS_DISTROS_ALL="kilted jazzy"

ws_detect_toolchain() {
  if [ -n "${WS_TOOLCHAIN:-}" ]; then echo "$WS_TOOLCHAIN"; return; fi
  if [ -n "${AMENT_PREFIX_PATH:-}" ] && [[ "${AMENT_PREFIX_PATH}" != *"/.venv/"* ]] \
     && python3 -c 'import rclpy' >/dev/null 2>&1; then
    echo system
  else
    echo venv
  fi
}

# ws_select DISTRO: sets the per-distro paths used by every script.
ws_select() {
  WS_DISTRO="$1"
  WS_TOOLCHAIN_MODE="$(ws_detect_toolchain)"
  WS_VENV="$WS_ROOT/.venv/$WS_DISTRO"
  WS_BUILD="$WS_ROOT/build/$WS_DISTRO"
  WS_INSTALL="$WS_ROOT/install/$WS_DISTRO"
  WS_LOG="$WS_ROOT/log/$WS_DISTRO"
  export WS_DISTRO WS_TOOLCHAIN_MODE WS_VENV WS_BUILD WS_INSTALL WS_LOG
}

# The distros a command runs on: the one ROS_DISTRO names, else the default one.
ws_default_distro() {
  if [ "$(ws_detect_toolchain)" = system ]; then echo "${ROS_DISTRO:?system ROS without ROS_DISTRO}"; return; fi
  echo "${ROS_DISTRO:-kilted}"
}

# ws_activate: put the selected toolchain on PATH and in the ament/CMake search paths.
ws_activate() {
  if [ "$WS_TOOLCHAIN_MODE" = venv ]; then
    "$WS_ROOT/scripts/bootstrap.sh" "$WS_DISTRO"
    # shellcheck disable=SC1091
    set +u; source "$WS_VENV/bin/activate"; set -u
    export AMENT_PREFIX_PATH="$WS_VENV" CMAKE_PREFIX_PATH="$WS_VENV"
    export ROS_DISTRO="$WS_DISTRO" ROS_VERSION=2 ROS_PYTHON_VERSION=3
    export LD_LIBRARY_PATH="$WS_VENV/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  else
    # A sourced ROS 2 needs no venv, but the browser test still needs chromium and npm's.
    "$WS_ROOT/scripts/bootstrap_shared.sh"
  fi
  # Keep DDS discovery on this host unless the user asked otherwise (Kilted and Jazzy).
  export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"
}

# ws_source_install: the built workspace on top of the toolchain.
ws_source_install() {
  # shellcheck disable=SC1091
  set +u; source "$WS_INSTALL/setup.bash"; set -u
}

# ws_build [colcon build args]: colcon build, quiet unless it fails (then the stderr of the
# packages is shown; the full logs stay in $WS_LOG). With no arguments it builds every
# package and records the tree's state for ws_build_changed.
ws_build() {
  ws_activate
  # One colcon build per build base at a time: two would write the same files.
  mkdir -p "$WS_BUILD"
  local started="$WS_BUILD/.ws-build-started" rc=0
  [ "$#" -eq 0 ] && : >"$started"
  (cd "$WS_ROOT" && flock 9 && colcon --log-base "$WS_LOG" build --base-paths "$WS_ROOT" \
      --build-base "$WS_BUILD" --install-base "$WS_INSTALL" \
      --metas "$WS_ROOT/colcon.meta" \
      --event-handlers console_cohesion- console_stderr- console_start_end- summary+ \
      $(ws_toolchain_skip) "$@") \
    9>"$WS_BUILD/.colcon-build.lock" >"$WS_BUILD/.ws-build-output" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    cat "$WS_BUILD/.ws-build-output" >&2
    ws_show_build_stderr >&2
    return "$rc"
  fi
  grep -E '^Summary:' "$WS_BUILD/.ws-build-output" || true
  [ "$#" -eq 0 ] && ws_toolchain_id >"$started" && mv "$started" "$WS_BUILD/.ws-build-stamp"
  return 0
}

# The stderr of the last build's packages, without setuptools' per-package notice that
# byte-compiling is disabled (colcon turns it off on purpose).
ws_show_build_stderr() {
  local f
  for f in "$WS_LOG"/latest_build/*/stderr.log; do
    [ -s "$f" ] || continue
    if grep -qv 'byte-compiling is disabled' "$f"; then
      echo "--- stderr: $(basename "$(dirname "$f")")"
      grep -v 'byte-compiling is disabled' "$f"
    fi
  done
}

# What the build was made with: the venv's requirements (bootstrap stamp) or the sourced ROS.
ws_toolchain_id() {
  if [ "$WS_TOOLCHAIN_MODE" = venv ]; then cat "$WS_VENV/.bootstrap-stamp" 2>/dev/null || true
  else echo "${AMENT_PREFIX_PATH:-}"; fi
}

# The packages (names) with a file or folder changed since the last full ws_build, or ALL
# when there is no such build, its install is gone, colcon.meta or the toolchain changed.
# The stamp's mtime is the build's start; its content the toolchain's id.
ws_changed_packages() {
  local stamp="$WS_BUILD/.ws-build-stamp"
  if [ ! -f "$stamp" ] || [ ! -f "$WS_INSTALL/setup.bash" ] \
     || [ "$WS_ROOT/colcon.meta" -nt "$stamp" ] \
     || [ "$(cat "$stamp")" != "$(ws_toolchain_id)" ]; then
    echo ALL; return
  fi
  # A folder's mtime changes when a file in it is added, removed or renamed.
  (cd "$WS_ROOT" && find . \( -path ./build -o -path ./install -o -path ./log -o -path ./.venv \
      -o -path ./.git -o -name __pycache__ -o -name '*.egg-info' -o -name .pytest_cache \) -prune \
      -o -newer "$stamp" -print) | while read -r path; do
    local dir="$path"
    [ -d "$dir" ] || dir="$(dirname "$dir")"
    while [ "$dir" != . ] && [ ! -f "$dir/package.xml" ]; do dir="$(dirname "$dir")"; done
    if [ "$dir" != . ]; then sed -n 's:.*<name>\(.*\)</name>.*:\1:p' "$dir/package.xml" | head -1; fi
  done | sort -u || true
}

# ws_build_changed: build only the packages changed since the last full build and those
# that depend on them (nothing when the tree is unchanged; everything the first time).
ws_build_changed() {
  local changed
  changed="$(ws_changed_packages)"
  if [ "$changed" = ALL ]; then
    ws_build
  elif [ -z "$changed" ]; then
    ws_activate
    echo "build: nothing changed since the last build of $WS_INSTALL"
  else
    ws_toolchain_id >"$WS_BUILD/.ws-build-started-changed"
    # shellcheck disable=SC2086
    ws_build --packages-above $changed \
      && mv "$WS_BUILD/.ws-build-started-changed" "$WS_BUILD/.ws-build-stamp"
  fi
}
# Packages the workspace builds only where the toolchain lacks them, never shadowing a distro's:
# tf2_msgs (issue 23), launch, launch_ros, launch_xml, launch_yaml, launch_testing and
# launch_testing_ros (issue 36). A prefix on AMENT_PREFIX_PATH other than this workspace's
# install with share/<package>/package.xml provides its own.
WS_TOOLCHAIN_PACKAGES="tf2_msgs launch launch_ros launch_xml launch_yaml launch_testing"
WS_TOOLCHAIN_PACKAGES+=" launch_testing_ros"
ws_toolchain_provides() {
  local IFS=: p
  for p in ${AMENT_PREFIX_PATH:-}; do
    [[ -n "$p" && "$p" != "$WS_INSTALL"* && -e "$p/share/$1/package.xml" ]] && return 0
  done
  return 1
}
# The colcon arguments that skip them (nothing when the toolchain has none of them).
ws_toolchain_skip() {
  local pkg skip=()
  for pkg in $WS_TOOLCHAIN_PACKAGES; do
    if ws_toolchain_provides "$pkg"; then skip+=("$pkg"); fi
  done
  if [ "${#skip[@]}" -gt 0 ]; then echo --packages-skip "${skip[@]}"; fi
  return 0
}
