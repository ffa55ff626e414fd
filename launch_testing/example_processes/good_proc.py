#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A process that counts to four and exits 0 (launch_testing's examples)."""

import sys
import time

print('Starting Up', flush=True)
try:
    for n in range(4):
        print(f'Loop {n}', flush=True)
        time.sleep(0.1)
    while True:
        time.sleep(0.1)
except KeyboardInterrupt:
    pass
print('Shutting Down', flush=True)
sys.exit(0)
