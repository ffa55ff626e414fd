# SPDX-License-Identifier: Apache-2.0
"""live_view's keyboard teleop: key parsing, and the executable driven through a pty."""

import os
import pty
import signal

from hb50_nodes.teleop import parse_keys, Teleop
import rosharness as rh

CLEAR = '\033[H\033[2J'      # live_view clears the screen before each frame


def test_parse_keys_arrows_letters_space():
    assert parse_keys(b'\x1b[A\x1b[B\x1bOC\x1b[DWq ') == [
        'up', 'down', 'right', 'left', 'w', 'q', 'space']


def test_keys_step_clamp_and_stop():
    t = Teleop()
    assert not t.active
    for key in ['up'] * 15 + ['a', 'q', 'q', 'e', 'r', 'i', 'i', 'l']:
        assert t.press(key)
    assert t.active
    assert t.linear == (1.0, 0.1, 0.1)            # forward clamped to 1
    assert t.angular == (0.1, -0.2, 0.1)          # roll right, pitch nose up x2, yaw left
    assert not t.press('x')                       # unbound: ignored
    t.press('space')
    assert t.linear == (0.0, 0.0, 0.0) and t.angular == (0.0, 0.0, 0.0)
    assert 'fwd +0.0' in t.describe()


def test_live_view_publishes_the_keys_on_a_terminal_and_exits_0(domain_id):
    from geometry_msgs.msg import Twist
    probe = rh.Probe()
    twists = []
    probe.node.create_subscription(Twist, probe.name(probe.topics.VELOCITY_COMMAND),
                                   twists.append, probe.qos.MAB_RT)
    # stdin is a terminal (the keys); the screen goes to the process' output file.
    master, slave = pty.openpty()
    proc = rh.start('live_view', '-p', 'refresh_rate:=5.0', stdin=slave)
    os.close(slave)

    def last_frames():
        return ''.join(proc.output().split(CLEAR)[-3:])

    try:
        assert rh.wait_for(lambda: 'keys: arrows' in proc.output(), 30.0), proc.output()
        assert not twists                          # nothing published before a key
        os.write(master, b'ww\x1b[Akq')            # 0.3 forward, pitch 0.1 down, yaw 0.1 left
        assert rh.wait_for(lambda: twists and twists[-1].linear.x > 0.29, 10.0)
        last = twists[-1]
        assert abs(last.linear.x - 0.3) < 1e-9 and abs(last.angular.y - 0.1) < 1e-9
        assert abs(last.angular.z - 0.1) < 1e-9 and last.linear.y == 0.0
        assert rh.wait_for(lambda: 'fwd +0.3' in last_frames(), 5.0)
        os.write(master, b' ')
        assert rh.wait_for(lambda: twists[-1].linear.x == 0.0, 5.0)
    finally:
        result = rh.stop(proc, timeout=15.0)
        os.close(master)
        probe.close()
    assert (result.returncode, result.signal) == (0, signal.SIGINT), result.output[-3000:]
    assert 'Traceback' not in result.output
