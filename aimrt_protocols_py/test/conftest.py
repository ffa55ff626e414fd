# SPDX-License-Identifier: Apache-2.0
"""The tests import the INSTALLED aimrt_protocols_py: only it has the protoc output."""
from workspace_testing.pytest_fixtures import use_installed_package

use_installed_package(__file__)
