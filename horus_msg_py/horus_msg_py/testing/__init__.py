# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
Test support shared by horus_msg_py and horus_bridge tests.

Samples for the real peer (horus-robotics 0.4.1) and a peer process (``python -m
horus_msg_py.testing.horus_peer``). Imports horus only inside the peer process.
"""
