# SPDX-License-Identifier: Apache-2.0
"""
Keyboard teleoperation of live_view: keys -> normalised /hb50/velocity_command.

Each key press moves one component by STEP (clamped to [-1, 1], linear.z too):
arrows or W/S forward/back and A/D left/right (linear x/y), Q/E yaw left/right (angular z),
R/F walking height up/down (linear z), I/K pitch nose up/down (angular y), J/L roll to the
left/right (angular x), space: everything back to 0. Pure Python, no ROS, no terminal: live_view
feeds it the bytes it reads from a TTY.
"""

from typing import Dict, List, Tuple

STEP = 0.1

# key -> (component index in (lin x, lin y, lin z, ang x, ang y, ang z), direction)
# Signs: x forward, y left, z up; roll > 0 lifts the left side, pitch > 0 lowers the nose,
# yaw > 0 turns left (right-handed, body frame).
BINDINGS: Dict[str, Tuple[int, int]] = {
    'up': (0, 1), 'w': (0, 1), 'down': (0, -1), 's': (0, -1),
    'left': (1, 1), 'a': (1, 1), 'right': (1, -1), 'd': (1, -1),
    'r': (2, 1), 'f': (2, -1),
    'j': (3, -1), 'l': (3, 1),
    'i': (4, -1), 'k': (4, 1),
    'q': (5, 1), 'e': (5, -1),
}
_ARROWS = {'A': 'up', 'B': 'down', 'C': 'right', 'D': 'left'}
HELP = ('keys: arrows/WASD move  Q/E yaw  R/F height  I/K pitch  J/L roll  space stop  '
        'Ctrl-C quit')


def parse_keys(data: bytes) -> List[str]:
    """
    Return the key names in the bytes read from a terminal.

    'up'/'down'/'left'/'right' for the arrow escape sequences (ESC [ A or ESC O A ...),
    'space', else the lower-case character.
    """
    text = data.decode('utf-8', errors='ignore')
    keys: List[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '\x1b' and i + 2 < len(text) and text[i + 1] in '[O':
            name = _ARROWS.get(text[i + 2])
            if name:
                keys.append(name)
            i += 3
            continue
        keys.append('space' if ch == ' ' else ch.lower())
        i += 1
    return keys


class Teleop:
    """The normalised command the keys have set so far."""

    def __init__(self) -> None:
        self.values = [0.0] * 6
        self.active = False     # True once a bound key was pressed: then live_view publishes

    def press(self, key: str) -> bool:
        """Apply one key; returns True when it was a bound key."""
        if key == 'space':
            self.values = [0.0] * 6
        elif key in BINDINGS:
            index, sign = BINDINGS[key]
            value = self.values[index] + sign * STEP
            self.values[index] = round(min(1.0, max(-1.0, value)), 6)
        else:
            return False
        self.active = True
        return True

    @property
    def linear(self) -> Tuple[float, ...]:
        return tuple(self.values[:3])

    @property
    def angular(self) -> Tuple[float, ...]:
        return tuple(self.values[3:])

    def describe(self) -> str:
        v = self.values
        return (f'velocity_command (normalised): fwd {v[0]:+.1f}  left {v[1]:+.1f}  '
                f'height {v[2]:+.1f}  roll {v[3]:+.1f}  pitch {v[4]:+.1f}  yaw {v[5]:+.1f}'
                + ('' if self.active else '   (press a key to start publishing)'))
