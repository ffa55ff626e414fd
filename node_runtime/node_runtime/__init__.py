# SPDX-License-Identifier: Apache-2.0
"""Process runtime shared by the workspace's executables: stop, runner, loop, bounded text."""
