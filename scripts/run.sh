#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The main job: build the workspace if needed, then run the simulated HB50 stack
# (bridge_node, control_node, heartbeat monitor) with a live terminal view. Ctrl-C stops all.
source "$(dirname "${BASH_SOURCE[0]}")/workspace.sh"
ws_select "$(ws_default_distro)"
ws_build_changed
ws_source_install
exec "$WS_ROOT/scripts/hb50_run.sh" "$@"
