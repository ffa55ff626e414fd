# SPDX-License-Identifier: Apache-2.0
"""Upstream's example files: test fixtures run by the tests beside this folder, not here."""

collect_ignore_glob = ['*.py']
