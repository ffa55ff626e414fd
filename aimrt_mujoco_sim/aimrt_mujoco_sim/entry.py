# SPDX-License-Identifier: Apache-2.0
"""
Console entry point: SIGINT/SIGTERM handlers first, then the heavy imports.

A signal that arrives while numpy, MuJoCo or protobuf are still importing sets the stop flag
instead of raising KeyboardInterrupt, so the executable exits 0 at any moment.
"""

import signal
import sys
import threading


def main():
    stop = threading.Event()

    def _stop(signum, frame):
        stop.set()
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    from aimrt_mujoco_sim.sim import main as sim_main
    return sim_main(stop=stop)


if __name__ == '__main__':
    sys.exit(main())
