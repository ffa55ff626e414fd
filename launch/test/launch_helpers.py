# SPDX-License-Identifier: Apache-2.0
"""Run a launch description in this process (a LaunchService) for the tests."""

import launch


def run(entities, argv=None, **kwargs):
    """Run ``entities`` (a list, or a LaunchDescription) to completion; return (rc, service)."""
    service = launch.LaunchService(argv=argv, **kwargs)
    description = entities if isinstance(entities, launch.LaunchDescription) \
        else launch.LaunchDescription(entities)
    service.include_launch_description(description)
    return service.run(), service
