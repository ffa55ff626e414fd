# SPDX-License-Identifier: Apache-2.0
"""
ros2doctor for the PyPI toolchain: ``ros2 doctor`` / ``ros2 wtf`` of the workspace's ``ros2``.

The module layout and the names of the API are ros2doctor's (``ros2doctor.api``,
``ros2doctor.verb.hello``, ``ros2doctor.command.doctor``) so that a check or report written
for the real ros2doctor, registered under the ``ros2doctor.checks`` / ``ros2doctor.report``
entry points, runs here too. It is installed only where the toolchain has no ros2cli (see
setup.py); with a real ros2cli, ``ros2`` is the real one and so is its ros2doctor.
"""
