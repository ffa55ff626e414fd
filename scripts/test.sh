#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build and test the whole workspace: `colcon build`, `colcon test`, `colcon test-result`.
# Venv toolchain: every supported distro (kilted, jazzy) unless ROS_DISTRO names one.
# Sourced ROS 2: that distro only. Exits non-zero when any build or test fails, and ends with
# a line "tests: N passed, M failed".
source "$(dirname "${BASH_SOURCE[0]}")/workspace.sh"

if [ "$(ws_detect_toolchain)" = venv ] && [ -z "${ROS_DISTRO:-}" ]; then
  distros="$WS_DISTROS_ALL"
else
  distros="$(ws_default_distro)"
fi

# Tests construct messages with field checks on, and keep DDS traffic on this host.
export ROS_PYTHON_CHECK_FIELDS=1 ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST
total_passed=0 total_failed=0 status=0
for distro in $distros; do
  ws_select "$distro"  # only sets the per-distro paths; the subshells below activate
  echo "=== $distro: build"
  ( ws_build ) || { echo "=== $distro: BUILD FAILED"; status=1; total_failed=$((total_failed + 1)); continue; }
  echo "=== $distro: test"
  ( ws_activate; ws_source_install
    cd "$WS_ROOT"
    rm -rf "$WS_BUILD"/*/test_results "$WS_BUILD"/*/pytest.xml
    # Several suites measure 500 Hz nodes on a shared 2-core VM that stalls for up to 28 ms:
    # a failed test is run again up to twice (pytest-rerunfailures, pinned) and the JUnit
    # summary still counts a test that never passed as failed. A defect fails all three.
    rerun_args=()
    if python3 -c 'import pytest_rerunfailures' 2>/dev/null; then
      rerun_args=(--reruns 2 --reruns-delay 2)
    fi
    # Sequential: the suites run DDS nodes at 500 Hz and share 2 cores.
    colcon --log-base "$WS_LOG" test --base-paths "$WS_ROOT" --build-base "$WS_BUILD" \
      --install-base "$WS_INSTALL" --executor sequential \
      --event-handlers console_cohesion+ summary+ $(ws_toolchain_skip) \
      --pytest-args -p no:cacheprovider -ra "${rerun_args[@]}"
  ) || status=1
  read -r passed failed < <(python3 "$WS_ROOT/scripts/junit_summary.py" "$WS_BUILD") \
    || { passed=0; failed=1; }
  echo "=== $distro: $passed passed, $failed failed"
  total_passed=$((total_passed + passed)); total_failed=$((total_failed + failed))
  [ "$failed" -eq 0 ] || status=1
  [ "$passed" -gt 0 ] || { echo "=== $distro: no test ran"; status=1; }
done
echo "tests: $total_passed passed, $total_failed failed"
exit $status
