#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Start the simulated HB50 stack and a live terminal view; Ctrl-C stops every process.
# Expects an activated toolchain with the workspace install sourced (scripts/run.sh does that).
# By default it starts the composed hb50_stack (one process, one loop: cheaper than three
# processes, see benchmarks/README.md); HB50_COMPOSED=0 starts the three executables instead.
# FOXGLOVE=1 also starts foxglove_live's Foxglove WebSocket server on ws://127.0.0.1:8765
# (FOXGLOVE_PORT to change it; off by default because receiving every topic costs CPU) and
# has the state publisher put the URDF on /robot_description too (Foxglove Studio 1.x).
# Node output goes to $HB50_LOG_DIR (default: a fresh temp dir) so that it does not scroll the view.
set -euo pipefail

prefix="$(python3 -c 'from ament_index_python.packages import get_package_prefix as p; print(p("hb50_nodes"))')"
lib="$prefix/lib/hb50_nodes"
params="$prefix/share/hb50_nodes/config/hb50.yaml"
logs="${HB50_LOG_DIR:-$(mktemp -d -t hb50-XXXXXX)}"
mkdir -p "$logs"
export ROS_AUTOMATIC_DISCOVERY_RANGE="${ROS_AUTOMATIC_DISCOVERY_RANGE:-LOCALHOST}"

pids=()
cleanup() {
  trap - INT TERM EXIT
  for pid in "${pids[@]}"; do kill -INT "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  echo "HB50 stack stopped (logs in $logs)."
}
trap cleanup INT TERM EXIT

# With FOXGLOVE=1 the state publisher also publishes the URDF on /robot_description, the one
# topic Foxglove Studio 1.x's 3D panel reads it from. In hb50_stack the -p reaches all four
# nodes; only state_publisher_node declares the parameter.
sp_args=()
if [ "${FOXGLOVE:-0}" = 1 ]; then sp_args=(-p publish_global_robot_description:=true); fi
if [ "${HB50_COMPOSED:-1}" = 1 ]; then
  "$lib/hb50_stack" --ros-args --params-file "$params" "${sp_args[@]}" \
    >"$logs/hb50_stack.log" 2>&1 &
  pids+=($!)
else
  for exe in bridge_node control_node heartbeat_monitor state_publisher_node; do
    args=(--ros-args --params-file "$params")
    if [ "$exe" = state_publisher_node ]; then args+=("${sp_args[@]}"); fi
    "$lib/$exe" "${args[@]}" >"$logs/$exe.log" 2>&1 &
    pids+=($!)
  done
fi
if [ "${FOXGLOVE:-0}" = 1 ]; then
  fox="$(python3 -c 'from ament_index_python.packages import get_package_prefix as p; print(p("foxglove_live"))')"
  "$fox/lib/foxglove_live/foxglove_server" --ros-args -p port:="${FOXGLOVE_PORT:-8765}" \
    >"$logs/foxglove_server.log" 2>&1 &
  pids+=($!)
  echo "Foxglove live view: in Foxglove, Open connection > Foxglove WebSocket > ws://localhost:${FOXGLOVE_PORT:-8765}"
  sleep 1
fi
# The view runs in the foreground; Ctrl-C reaches it and the trap stops the stack.
"$lib/live_view" "$@" || true
