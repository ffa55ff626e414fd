#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A process that exits with the code given as its first argument (default 1)."""

import sys

print('Exiting with code', sys.argv[1] if len(sys.argv) > 1 else '1', flush=True)
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
