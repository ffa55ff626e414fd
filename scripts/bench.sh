#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Run every benchmark script in benchmarks/ with its defaults against the built workspace;
# each prints its own figures. ROS_DISTRO selects the distro (default kilted).
source "$(dirname "${BASH_SOURCE[0]}")/workspace.sh"
ws_select "$(ws_default_distro)"
ws_build
ws_source_install
status=0
for script in "$WS_ROOT"/benchmarks/[!_]*.py; do
  echo "=== $(basename "$script")"
  python3 "$script" "$@" || status=1
done
exit $status
