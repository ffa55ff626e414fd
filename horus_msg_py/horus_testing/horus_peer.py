# Copyright 2025 The horus_msg_py authors
# SPDX-License-Identifier: Apache-2.0
"""
The real peer, run as a separate process: horus-robotics 0.4.1.

  python -m horus_testing.horus_peer publish PREFIX PERIOD TYPE...
      send each sample (once if PERIOD is 0, else every PERIOD s), print READY,
      hold the topics until stdin closes
  python -m horus_testing.horus_peer subscribe PREFIX TIMEOUT TYPE...
                                                  print JSON {type: attrs} of the first
                                                  message of each topic
"""

import json
import select
import sys
import time
from typing import Dict, Sequence

import horus

from . import peer_samples


def publish(prefix: str, period: float, types: Sequence[str]) -> None:
    topics = []
    for type_name in types:
        topic = horus.Topic(getattr(horus, type_name), endpoint=prefix + type_name)
        if not topic.send(peer_samples.build_horus(horus, type_name)):
            raise SystemExit('send failed for %s' % type_name)
        topics.append((type_name, topic))
    print('READY', flush=True)
    # Hold the topics until the test closes stdin (EOF) or kills us.
    while True:
        readable, _, _ = select.select([sys.stdin], [], [], period or None)
        if readable and not sys.stdin.read(1):
            return
        for type_name, topic in topics:
            topic.send(peer_samples.build_horus(horus, type_name))


def subscribe(prefix: str, timeout: float, types: Sequence[str]) -> None:
    topics = {t: horus.Topic(getattr(horus, t), endpoint=prefix + t) for t in types}
    got: Dict[str, peer_samples.Sample] = {}
    deadline = time.monotonic() + timeout
    while len(got) < len(topics) and time.monotonic() < deadline:
        idle = True
        for type_name, topic in topics.items():
            if type_name in got:
                continue
            msg = topic.recv()
            if msg is not None:
                got[type_name] = peer_samples.read_horus(msg)
                idle = False
        if idle:
            time.sleep(0.002)
    print(json.dumps(got), flush=True)


if __name__ == '__main__':
    if sys.argv[1] == 'publish':
        publish(sys.argv[2], float(sys.argv[3]), sys.argv[4:])
    else:
        subscribe(sys.argv[2], float(sys.argv[3]), sys.argv[4:])
