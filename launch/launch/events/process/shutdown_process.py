# SPDX-License-Identifier: Apache-2.0
"""ShutdownProcess: ask processes to shut down (SIGINT, then escalation)."""

from .process_targeted_event import ProcessTargetedEvent


class ShutdownProcess(ProcessTargetedEvent):
    """Shut the matched processes down as at launch's shutdown."""

    name = 'launch.events.process.ShutdownProcess'
