# SPDX-License-Identifier: Apache-2.0
"""The pieces every simulator of the workspace shares: command watchdog, start-up/teardown."""
