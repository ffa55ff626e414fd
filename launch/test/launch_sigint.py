# SPDX-License-Identifier: Apache-2.0
"""A launch of two children (one ignoring SIGINT), for test_sigint: python launch_sigint.py."""

import sys

import launch
from launch.actions import ExecuteProcess

STUBBORN = ('import signal, time; signal.signal(signal.SIGINT, signal.SIG_IGN); '
            'print("stubborn ready", flush=True); time.sleep(60)')
POLITE = ('import signal, sys, time; signal.signal(signal.SIGINT, lambda *_: sys.exit(0)); '
          'print("polite ready", flush=True); time.sleep(60)')

if __name__ == '__main__':
    service = launch.LaunchService(noninteractive='-n' in sys.argv)
    service.include_launch_description(launch.LaunchDescription([
        ExecuteProcess(cmd=[sys.executable, '-c', POLITE], name='polite', output='screen'),
        ExecuteProcess(cmd=[sys.executable, '-c', STUBBORN], name='stubborn', output='screen',
                       sigterm_timeout='0.5', sigkill_timeout='0.5'),
    ]))
    sys.exit(service.run())
