# SPDX-License-Identifier: Apache-2.0
"""PND Adam U robot-side simulator on plain Cyclone DDS (see simulator.py)."""
