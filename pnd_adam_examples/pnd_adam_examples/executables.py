# SPDX-License-Identifier: Apache-2.0
"""Entry points of the package's executables: signals are routed first, imports follow."""

from pnd_adam_sim.stop_request import StopRequest


def adam_arm_pose(early=()):
    """Run the arm pose example (script ``adam_arm_pose``); early: signals noted before."""
    stop = StopRequest().install(early)
    from .arm_pose import main
    return main(stop=stop)
