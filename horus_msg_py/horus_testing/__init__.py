# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Test support shared by horus_msg_py's and horus_bridge's tests; no library code imports it.

Samples for the real peer (horus-robotics 0.4.1) and a peer process (``python -m
horus_testing.horus_peer``). Imports horus only inside the peer process. It is a
package of its own, next to the horus_msg_py library rather than inside it, so that
horus_bridge's tests can import it while ``import horus_msg_py`` carries no test code.
"""
