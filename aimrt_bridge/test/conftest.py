# SPDX-License-Identifier: Apache-2.0
"""
Test the INSTALLED package.

colcon runs `python -m pytest` from the package's source folder, which puts that
folder first on sys.path and would shadow the installed package (for
aimrt_protocols_py the source tree has no protoc output at all: it is generated
at build time into the install space).  Drop the source folder from sys.path.
"""
import os
import sys

_SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _SOURCE_ROOT]

from workspace_testing.pytest_fixtures import domain_id  # noqa: E402,F401 (after the path fix)
