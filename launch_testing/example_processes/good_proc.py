#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
A process that counts until it is stopped and then exits 0 (launch_testing's examples).

Prints ``Called with arguments [...]`` (when given any), ``Starting Up``, then ``Loop N``
for N = 0, 1, 2 ... every quarter second, and on SIGINT or SIGTERM ``Shutting Down``.
"""

import signal
import sys
import time


def _stop(signum, frame):
    raise KeyboardInterrupt


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    if sys.argv[1:]:
        print(f'Called with arguments {sys.argv[1:]}', flush=True)
    print('Starting Up', flush=True)
    count = 0
    try:
        while True:
            print(f'Loop {count}', flush=True)
            count += 1
            time.sleep(0.25)
    except KeyboardInterrupt:
        pass
    print('Shutting Down', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
