# SPDX-License-Identifier: Apache-2.0
"""MessagePump: spin a test's node in a thread of its own."""

import threading
from typing import Any, Optional

import rclpy
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node


class MessagePump:
    """Spin ``node`` in a background thread between ``start()`` and ``stop()``."""

    def __init__(self, node: Node, context: Optional[Any] = None) -> None:
        """Create the pump of ``node`` (in ``context``, the default context if None)."""
        self._node = node
        self._context = context
        self._executor = SingleThreadedExecutor(context=context)
        self._stop = threading.Event()
        self._thread: Optional[threading.Thread] = None

    def start(self) -> None:
        """Start spinning."""
        self._executor.add_node(self._node)
        self._thread = threading.Thread(target=self._run, name='message_pump', daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set() and rclpy.ok(context=self._context):
            self._executor.spin_once(timeout_sec=0.05)

    def stop(self) -> None:
        """Stop spinning and wait for the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._executor.remove_node(self._node)
