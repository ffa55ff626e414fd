# SPDX-License-Identifier: Apache-2.0
"""PND Adam U robot facts: joint order, limits, hand range, vendor gains (plain Python)."""
