# SPDX-License-Identifier: Apache-2.0
"""
The periodic-node contract and the one loop that ticks such nodes (node_runtime.runner).

A node whose ``runs_in_loop`` is true is a ``PeriodicNode``: it has a ``period`` (s) and
``tick(deadline_s)``. The nodes at the first such node's period share one DeadlineLoop and
are ticked in the order given; one at another rate has its ``start_timer()`` called instead.
``busy_wait`` and ``rt_priority`` attributes, where present, are taken as the largest of the
nodes'.
"""

from typing import Any, Callable, List, Optional, Protocol, Sequence, Tuple, TypeGuard

from .loop import DeadlineLoop


class PeriodicNode(Protocol):
    """A node the runner ticks at a fixed rate in its DeadlineLoop."""

    runs_in_loop: bool      # True: tick me in the loop (False or absent: spin only)
    period: float           # s between two ticks

    def tick(self, deadline: float) -> None:
        """Do one period's work; ``deadline`` is the tick's deadline (monotonic s)."""


def is_periodic(node: object) -> TypeGuard[PeriodicNode]:
    """Return whether `node` asks to be ticked in the loop (``runs_in_loop`` is True)."""
    return getattr(node, 'runs_in_loop', False) is True


def periodic_nodes(nodes: Sequence[object]) -> List[PeriodicNode]:
    """Return the PeriodicNodes of `nodes`, in order."""
    return [node for node in nodes if is_periodic(node)]


def shared_loop(nodes: Sequence[Any],
                options: Callable[[Any], Tuple[float, int]] = lambda node: (
                    getattr(node, 'busy_wait', 0.0), getattr(node, 'rt_priority', 0)),
                ) -> Optional[DeadlineLoop]:
    """
    Return the DeadlineLoop that ticks the periodic nodes of `nodes` (see above), or None.

    options(node) gives a node's (busy_wait s, rt_priority); the loop takes the largest.
    The loop's ``nodes`` attribute lists the nodes it ticks.
    """
    periodic = periodic_nodes(nodes)
    if not periodic:
        return None
    period = periodic[0].period
    same = [n for n in periodic if n.period == period]
    for node in periodic:
        if node not in same:
            start_timer: Callable[[], None] = getattr(node, 'start_timer')
            start_timer()
    ticks = tuple(n.tick for n in same)
    if len(ticks) == 1:
        tick = ticks[0]
    else:
        def tick(deadline: float) -> None:
            for one in ticks:
                one(deadline)
    busy, priority = zip(*(options(n) for n in same))
    loop = DeadlineLoop(period, tick, busy_wait=max(busy), rt_priority=max(priority))
    loop.nodes = same   # type: ignore[attr-defined]
    return loop


def warm_log_caller_lookup() -> None:
    """
    Pay, before a loop starts, the one-time cost of rclpy's logger finding its caller.

    RcutilsLogger.log calls inspect.getframeinfo, whose first call maps every loaded module to
    its file (about 10 ms with rclpy, numpy and MuJoCo loaded): paid inside a 500 Hz loop, the
    first log line (a node's first rejected command) would stall it for five ticks.
    """
    import inspect
    inspect.getframeinfo(inspect.currentframe())  # type: ignore[arg-type]
