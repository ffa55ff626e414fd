#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Build the workspace with colcon for one distro (ROS_DISTRO, default kilted), bootstrapping
# the venv toolchain first when no ROS 2 is sourced. Extra arguments go to `colcon build`.
source "$(dirname "${BASH_SOURCE[0]}")/workspace.sh"
ws_select "$(ws_default_distro)"
ws_build "$@"
