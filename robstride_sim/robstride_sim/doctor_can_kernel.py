# SPDX-License-Identifier: Apache-2.0
"""
The kernel's view of a SocketCAN interface, for `ros2 doctor`'s RobStride check.

From /sys and ``ip -details -statistics -json link``: the interface present, a CAN device,
up, its bitrate, restart-ms, error state and counters, bus-off events; and a serial USB-CAN
adapter (a CH340 and the like, /sys/class/tty) where a SocketCAN interface was expected
(sirwart/robstride#1). Each finding is one line with the fix.
"""

import json
import os
import stat
import subprocess
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from ros2doctor.api.link import Finding

from .doctor_can_config import CanConfig, ENV_CAN

ARPHRD_CAN = 280
SYS_NET = '/sys/class/net'
SYS_TTY = '/sys/class/tty'
# USB serial chips of USB-CAN adapters that are serial devices, not SocketCAN ones (the
# RobStride adapter is a CH340; sirwart/robstride#1).
SERIAL_CHIPS = {('1a86', '7523'): 'QinHeng CH340', ('1a86', '5523'): 'QinHeng CH341',
                ('1a86', '55d3'): 'QinHeng CH343', ('0403', '6001'): 'FTDI FT232',
                ('10c4', 'ea60'): 'Silicon Labs CP210x', ('0483', '5740'): 'STM32 virtual COM'}
#: ``ip -details -json link show``'s entry of one interface (parsed JSON).
LinkEntry = Dict[str, Any]


class UsbIds(NamedTuple):
    """USB vendor and product id of a device, as sysfs spells them ('1a86', '7523')."""

    vendor: str
    product: str


def serial_adapters(sys_tty: str = SYS_TTY) -> List[Tuple[str, str]]:
    """Return [(/dev/ttyUSBn or ttyACMn, 'vid:pid chip')] of the USB serial devices present."""
    found: List[Tuple[str, str]] = []
    try:
        names = sorted(os.listdir(sys_tty))
    except OSError:
        return found
    for name in names:
        if not name.startswith(('ttyUSB', 'ttyACM')):
            continue
        usb = os.path.realpath(os.path.join(sys_tty, name, 'device'))
        ids: Optional[UsbIds] = None
        for _ in range(4):       # tty's device is the USB interface; the ids are above it
            usb = os.path.dirname(usb)
            try:
                with open(os.path.join(usb, 'idVendor')) as f:
                    vendor = f.read().strip()
                with open(os.path.join(usb, 'idProduct')) as f:
                    product = f.read().strip()
                ids = UsbIds(vendor, product)
                break
            except OSError:
                continue
        label = 'unknown USB serial chip' if ids is None else \
            f"{ids.vendor}:{ids.product} {SERIAL_CHIPS.get(ids, 'USB serial chip')}"
        found.append((f'/dev/{name}', label))
    return found


def _serial_fix(device: str, channel: str) -> str:
    return (f'the RobStride USB-CAN adapter is a serial device, not SocketCAN '
            f'(sirwart/robstride#1): if its firmware speaks SLCAN, `sudo slcand -o -c -s8 '
            f'{device} {channel} && sudo ip link set {channel} up`; otherwise use a SocketCAN '
            'adapter (candleLight/gs_usb, PEAK).')


def ip_link_details(channel: str) -> Optional[LinkEntry]:
    """Return ``ip -details -statistics -json link show dev <channel>``'s entry (None: none)."""
    try:
        out = subprocess.run(['ip', '-details', '-statistics', '-json', 'link', 'show', 'dev',
                              channel], capture_output=True, text=True, timeout=2.0)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if out.returncode != 0:
        return None
    try:
        entries = json.loads(out.stdout or '[]')
    except ValueError:
        return None
    entry: Optional[LinkEntry] = entries[0] if entries else None
    return entry


def kernel_findings(config: CanConfig, sys_net: str = SYS_NET, sys_tty: str = SYS_TTY,
                    details: Callable[[str], Optional[LinkEntry]] = ip_link_details
                    ) -> Tuple[List[Finding], Dict[str, str]]:
    """
    Return (findings, report items) of a SocketCAN channel as the kernel sees it.

    Nothing for another python-can interface than socketcan, except a serial device given as
    its channel. The second element is what the report prints (state, bitrate, ...).
    """
    out: List[Finding] = []
    items: Dict[str, str] = {}
    channel = config.channel
    if channel.startswith('/dev/') or os.sep in channel:
        try:
            is_char = stat.S_ISCHR(os.stat(channel).st_mode)
        except OSError:
            is_char = False
        if is_char:
            out.append(('error', f'CAN channel {channel} is a serial (character) device, not a '
                                 f'SocketCAN interface: ' + _serial_fix(channel, 'can0')))
            items['kernel'] = 'serial device'
            return out, items
    if config.interface != 'socketcan':
        return out, items
    path = os.path.join(sys_net, channel)
    if not os.path.isdir(path):
        serial = serial_adapters(sys_tty)
        if serial:
            device, label = serial[0]
            out.append(('error', f'no SocketCAN interface {channel}, but {device} ({label}) '
                                 f'is a serial USB-CAN adapter: ' + _serial_fix(device, channel)))
        else:
            out.append(('error', f'CAN channel {channel} does not exist (no {path}): plug the '
                                 'adapter in and check `ip -details link show`; for a test bus '
                                 f'`sudo ip link add dev {channel} type vcan`.'))
        items['kernel'] = 'missing'
        return out, items
    try:
        with open(os.path.join(path, 'type')) as f:
            link_type = int(f.read().strip())
    except (OSError, ValueError):
        link_type = -1
    if link_type != ARPHRD_CAN:
        out.append(('error', f'{channel} is not a CAN interface (link type {link_type}, CAN is '
                             f'{ARPHRD_CAN}): set the CAN channel (e.g. can0) in can_channel / '
                             f'{ENV_CAN}.'))
        items['kernel'] = f'not CAN (type {link_type})'
        return out, items
    entry = details(channel) or {}
    more, shown = link_findings(channel, entry, config.bitrate)
    out += more
    items.update(shown)
    return out, items


def link_findings(channel: str, entry: LinkEntry,
                  bitrate: int) -> Tuple[List[Finding], Dict[str, str]]:
    """Return (findings, report items) of one CAN interface's ``ip -details -json`` entry."""
    out: List[Finding] = []
    info = entry.get('linkinfo', {})
    kind = info.get('info_kind', '?')
    data = info.get('info_data', {}) or {}
    xstats = info.get('info_xstats', {}) or {}
    up = 'UP' in entry.get('flags', [])
    timing = data.get('bittiming', {}) or {}
    actual = timing.get('bitrate')
    state = data.get('state', '')
    restart_ms = data.get('restart_ms')
    counters = data.get('berr_counter', {}) or {}
    items = {'kernel': f"{kind}, {'up' if up else 'down'}"
                       + (f', {state}' if state else '')}
    if actual is not None:
        items['bitrate'] = f'{actual} bit/s'
    if restart_ms is not None:
        items['restart-ms'] = str(restart_ms)
    if counters:
        items['error counters'] = f"tx {counters.get('tx', 0)}, rx {counters.get('rx', 0)}"
    if 'bus_off' in xstats:
        items['bus-off events'] = str(xstats.get('bus_off'))
    wanted = bitrate or 1000000
    if not up:
        setup = '' if kind == 'vcan' else f' type can bitrate {wanted} restart-ms 100'
        out.append(('error', f'CAN interface {channel} is down: `sudo ip link set {channel} up'
                             f'{setup}`.'))
        return out, items
    if bitrate and actual is not None and int(actual) != bitrate:
        out.append(('error', f'CAN interface {channel} runs at {actual} bit/s where {bitrate} is '
                             f'configured (RobStride motors default to 1 Mbit/s): `sudo ip link '
                             f'set {channel} down && sudo ip link set {channel} up type can '
                             f'bitrate {bitrate}`.'))
    if state == 'BUS-OFF':
        out.append(('error', f'CAN interface {channel} is bus-off (tx errors '
                             f"{counters.get('tx', '?')}): check termination (120 ohm at each "
                             'end), wiring and that every node uses the same bitrate; '
                             + ('restart it with `sudo ip link set {0} down && sudo ip link set '
                                '{0} up`'.format(channel) if not restart_ms else
                                f'it restarts itself after {restart_ms} ms') + '.'))
    elif state in ('ERROR-PASSIVE', 'ERROR-WARNING'):
        out.append(('warning', f'CAN interface {channel} is {state} (tx errors '
                               f"{counters.get('tx', '?')}, rx {counters.get('rx', '?')}): "
                               'frames are not acknowledged: check termination, wiring, '
                               'motor power and the bitrate.'))
    if kind == 'can' and not restart_ms:
        out.append(('warning', f'CAN interface {channel} has restart-ms 0: after a bus-off it '
                               'stays off until set down and up; add `restart-ms 100` to its '
                               '`ip link set ... type can` line.'))
    return out, items
