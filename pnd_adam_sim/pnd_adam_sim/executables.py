# SPDX-License-Identifier: Apache-2.0
"""Entry points of the package's executables: signals are routed first, imports follow."""

from .stop_request import StopRequest


def adam_sim(early=()):
    """Run the simulator (script ``adam_sim``); early: signals noted before."""
    stop = StopRequest().install(early)
    from .simulator import main
    return main(stop=stop)
