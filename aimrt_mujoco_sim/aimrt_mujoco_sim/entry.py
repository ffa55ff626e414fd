# SPDX-License-Identifier: Apache-2.0
"""
Start-up after the launcher (scripts/aimrt_mujoco_sim): take over the stop handlers.

The launcher's first statements record SIGINT/SIGTERM in a list; here they become a
threading.Event the simulator loop watches, before numpy, MuJoCo or protobuf are imported.
"""

import signal
import threading


def main(early=()):
    """Install the stop handlers, then import and run the simulator; return the exit code."""
    stop = threading.Event()

    def _stop(signum, frame):
        stop.set()
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    if early:
        return 0  # stopped before anything was created
    from aimrt_mujoco_sim.sim import main as sim_main
    return sim_main(stop=stop)
