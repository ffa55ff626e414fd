#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""
A process that starts, works a little and exits by itself (launch_testing's examples).

Prints ``Starting Up``, ``Ready``, ``Called with arguments [...]`` (when given any),
``Emulating Work``, ``Done`` and ``Shutting Down``, then exits 0. With ``--exception`` it
stops after the arguments with one line on stderr and exit code 1 (a pretend error).
"""

import signal
import sys
import time


def _stop(signum, frame):
    raise KeyboardInterrupt


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    try:
        print('Starting Up', flush=True)
        time.sleep(0.5)
        print('Ready', flush=True)
        if sys.argv[1:]:
            print(f'Called with arguments {sys.argv[1:]}', flush=True)
        if '--exception' in sys.argv[1:]:
            print('terminating_proc: a pretend error (--exception)', file=sys.stderr,
                  flush=True)
            return 1
        print('Emulating Work', flush=True)
        time.sleep(0.5)
        print('Done', flush=True)
    except KeyboardInterrupt:
        pass
    print('Shutting Down', flush=True)
    return 0


if __name__ == '__main__':
    sys.exit(main())
