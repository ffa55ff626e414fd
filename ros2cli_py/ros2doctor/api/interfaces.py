# SPDX-License-Identifier: Apache-2.0
"""
The host's network interfaces (Linux: ioctl, /sys and /proc, no extra dependency).

And which of them DDS will use, from the same variables and profiles the rmw reads.
"""

import fcntl
import os
import re
import socket
import struct
from typing import Dict
from typing import List
from typing import Optional
from typing import Tuple

_SIOCGIFFLAGS = 0x8913
_SIOCGIFADDR = 0x8915
_SIOCGIFBRDADDR = 0x8919
_SIOCGIFNETMASK = 0x891b
_SIOCGIFMTU = 0x8921

# Linux interface flag bits, in the order psutil (ros2doctor's source) lists them.
FLAG_NAMES = (
    (0x1, 'up'), (0x2, 'broadcast'), (0x4, 'debug'), (0x8, 'loopback'),
    (0x10, 'pointopoint'), (0x20, 'notrailers'), (0x40, 'running'), (0x80, 'noarp'),
    (0x100, 'promisc'), (0x200, 'allmulti'), (0x400, 'master'), (0x800, 'slave'),
    (0x1000, 'multicast'), (0x2000, 'portsel'), (0x4000, 'automedia'), (0x8000, 'dynamic'))


class InterfaceError(Exception):
    """An interface that cannot be queried (gone, or not permitted)."""


class Interface:
    """What the kernel says about one network interface."""

    def __init__(self, name: str):
        """Query ``name``; InterfaceError when the kernel cannot tell."""
        self.name = name
        self.flags = _flags(name)
        self.mtu = _ioctl_int(name, _SIOCGIFMTU)
        self.inet4 = _ioctl_addr(name, _SIOCGIFADDR)
        self.netmask = _ioctl_addr(name, _SIOCGIFNETMASK) if self.inet4 else None
        self.broadcast = (_ioctl_addr(name, _SIOCGIFBRDADDR)
                          if self.inet4 and 'broadcast' in self.flags else None)
        self.inet6 = _inet6(name)
        self.ether = _mac(name)

    @property
    def is_up(self) -> bool:
        """Whether the interface is administratively up."""
        return 'up' in self.flags

    @property
    def is_loopback(self) -> bool:
        """Whether it is a loopback interface."""
        return 'loopback' in self.flags

    @property
    def has_multicast(self) -> bool:
        """Whether multicast is on."""
        return 'multicast' in self.flags

    def flags_text(self) -> str:
        """Return the flags as ros2doctor prints them: upper case, comma separated."""
        return ','.join(self.flags).upper()


def interface_names() -> List[str]:
    """Return the names of the host's interfaces, in kernel index order."""
    return [name for _, name in sorted(socket.if_nameindex())]


def query_all() -> Tuple[List[Interface], List[Tuple[str, str]]]:
    """Return (the interfaces, [(name, why)] of those that could not be queried)."""
    found, failed = [], []
    for name in interface_names():
        try:
            found.append(Interface(name))
        except InterfaceError as e:
            failed.append((name, str(e)))
    return found, failed


def _ioctl(name: str, request: int, size: int = 40) -> bytes:
    raw = name.encode()[:15]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        return fcntl.ioctl(sock.fileno(), request, struct.pack('16s', raw) + bytes(size - 16))


def _flags(name: str) -> List[str]:
    try:
        data = _ioctl(name, _SIOCGIFFLAGS)
    except OSError as e:
        raise InterfaceError(e.strerror or str(e)) from None
    bits = struct.unpack_from('H', data, 16)[0]
    return [text for bit, text in FLAG_NAMES if bits & bit]


def _ioctl_int(name: str, request: int) -> Optional[int]:
    try:
        return struct.unpack_from('i', _ioctl(name, request), 16)[0]
    except OSError:
        return None


def _ioctl_addr(name: str, request: int) -> Optional[str]:
    try:
        data = _ioctl(name, request)
    except OSError:
        return None     # no IPv4 address (EADDRNOTAVAIL)
    return socket.inet_ntoa(data[20:24])


def _inet6(name: str) -> List[str]:
    addresses = []
    try:
        with open('/proc/net/if_inet6') as f:
            for line in f:
                fields = line.split()
                if len(fields) == 6 and fields[5] == name:
                    packed = bytes.fromhex(fields[0])
                    addresses.append(socket.inet_ntop(socket.AF_INET6, packed))
    except (OSError, ValueError):
        pass
    return addresses


def _mac(name: str) -> Optional[str]:
    try:
        with open(f'/sys/class/net/{name}/address') as f:
            address = f.read().strip()
    except OSError:
        return None
    # loopback's all-zero address says nothing
    return address if address and address.strip('0:') else None


# -- which interfaces DDS uses --------------------------------------------------------------

def discovery_range() -> str:
    """Return the effective ROS automatic discovery range (SUBNET unless set otherwise)."""
    if os.environ.get('ROS_LOCALHOST_ONLY', '') == '1':
        return 'LOCALHOST'
    value = os.environ.get('ROS_AUTOMATIC_DISCOVERY_RANGE', '').strip().upper()
    return value if value in ('OFF', 'LOCALHOST', 'SUBNET', 'SYSTEM_DEFAULT') else 'SUBNET'


def _profile_text(variables: Tuple[str, ...]) -> Tuple[Optional[str], Optional[str]]:
    """Return (the variable naming a DDS profile, its text); the text may be inline XML."""
    for variable in variables:
        value = os.environ.get(variable, '').strip()
        if not value:
            continue
        if value.lstrip().startswith('<'):
            return variable, value
        path = value[len('file://'):] if value.startswith('file://') else value
        try:
            with open(path.split(',')[0]) as f:
                return variable, f.read()
        except OSError:
            return variable, None
    return None, None


def dds_interfaces(interfaces: List[Interface]) -> Tuple[List[str], str]:
    """
    Return (names of the interfaces DDS will carry its traffic on, why those).

    LOCALHOST (or ROS_LOCALHOST_ONLY=1) keeps it on loopback; OFF discovers nothing. Else a
    Cyclone DDS NetworkInterface / a Fast DDS interface allowlist in the profile decides;
    without one, Cyclone DDS takes one multicast-capable interface and Fast DDS every
    interface that is up with an IPv4 address.
    """
    scope = discovery_range()
    loopback = [i.name for i in interfaces if i.is_loopback]
    if scope == 'OFF':
        return [], 'ROS_AUTOMATIC_DISCOVERY_RANGE=OFF: no discovery'
    if scope == 'LOCALHOST':
        return loopback, 'discovery range LOCALHOST: this host only'
    rmw = os.environ.get('RMW_IMPLEMENTATION', '') or 'rmw_fastrtps_cpp'
    up = [i for i in interfaces if i.is_up]
    if 'cyclonedds' in rmw:
        variable, text = _profile_text(('CYCLONEDDS_URI',))
        names = re.findall(r'<NetworkInterface\b[^>]*\bname="([^"]+)"', text or '')
        names += re.findall(r'<NetworkInterfaceAddress>\s*([^<\s]+)\s*<', text or '')
        if names:
            return names, f'{variable} names it'
        chosen = [i.name for i in up if not i.is_loopback and i.has_multicast and i.inet4]
        return chosen[:1] or loopback, 'Cyclone DDS default: the first multicast interface'
    variable, text = _profile_text(('FASTDDS_DEFAULT_PROFILES_FILE',
                                    'FASTRTPS_DEFAULT_PROFILES_FILE'))
    allow = re.findall(r'<interface\b[^>]*\bname="([^"]+)"', text or '')
    allow += re.findall(r'<address>\s*([^<\s]+)\s*</address>',
                        (re.search(r'<interfaceWhiteList>(.*?)</interfaceWhiteList>',
                                   text or '', re.S) or re.match('', '')).group(0))
    if allow:
        by_address = {i.inet4: i.name for i in interfaces if i.inet4}
        return [by_address.get(a, a) for a in allow], f'{variable} allowlist'
    return ([i.name for i in up if i.inet4],
            'Fast DDS default: every interface that is up with an IPv4 address')


def summary(interfaces: List[Interface]) -> Dict[str, bool]:
    """Return whether there is a loopback, a non-loopback and a multicast interface."""
    return {
        'loopback': any(i.is_loopback for i in interfaces),
        'non_loopback': any(not i.is_loopback for i in interfaces),
        'multicast': any(i.has_multicast for i in interfaces),
    }
