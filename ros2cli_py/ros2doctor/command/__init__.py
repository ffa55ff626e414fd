# SPDX-License-Identifier: Apache-2.0
"""The ``doctor`` command (and its ``wtf`` alias)."""
