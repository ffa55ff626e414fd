# SPDX-License-Identifier: Apache-2.0
"""ros2 command for the PyPI toolchain: run, pkg, interface, topic, node, service, param."""
