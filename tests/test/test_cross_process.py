# SPDX-License-Identifier: Apache-2.0
"""
One message of every type crosses a process boundary.

One message of every type crosses a process boundary over DDS (rmw_fastrtps_cpp):
published here with a non-default value in every field, received by a subscriber in another
process, and compared field for field.
"""

import json
import os
import pathlib
import subprocess
import sys
import threading
import time

from echo_messages import topic_for
from interface_spec import MESSAGES
from interface_values import filled, import_type
import rclpy
from rclpy.serialization import deserialize_message

HERE = pathlib.Path(__file__).parent


def test_every_message_type_crosses_a_process_boundary_intact(ros_node):
    names = sorted(MESSAGES)
    sent = {name: filled(import_type(name), k=3) for name in names}
    publishers = {name: ros_node.create_publisher(import_type(name), topic_for(name), 10)
                  for name in names}
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HERE)] + os.environ.get('PYTHONPATH', '').split(os.pathsep)))
    echo = subprocess.Popen([sys.executable, str(HERE / 'echo_messages.py'), '--timeout', '60']
                            + names, stdout=subprocess.PIPE, text=True, env=env)
    received = {}

    def read():
        for line in echo.stdout:
            record = json.loads(line)
            if 'type' in record:
                received[record['type']] = bytes.fromhex(record['cdr'])

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        end = time.monotonic() + 90
        while echo.poll() is None and time.monotonic() < end:
            for name in names:
                if name not in received:
                    publishers[name].publish(sent[name])
            rclpy.spin_once(ros_node, timeout_sec=0.1)
    finally:
        if echo.poll() is None:
            echo.kill()
        echo.wait(10)
        reader.join(5)
    assert set(received) == set(names), f'never received: {sorted(set(names) - set(received))}'
    for name in names:
        assert deserialize_message(received[name], import_type(name)) == sent[name], name
