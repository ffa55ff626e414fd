# SPDX-License-Identifier: Apache-2.0
"""What the verbs of a command share: its arguments, lookups and printing (one module each)."""
