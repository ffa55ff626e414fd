# SPDX-License-Identifier: Apache-2.0
"""
`ros2 doctor` check and report of the RobStride link (entry points in setup.py).

Two sources of work, each optional; with neither the check is silent and the report says
"not running":

- every running ``robstride_hardware_interface`` node: its parameters (``can_interface``,
  ``can_channel``, ``can_bitrate``, ``can_ids``, ``update_rate_hz``), its ``~/robstride_state``
  listened to for MEASURE_S: comm_state (bus not open / send failing), faulted or disabled
  motors, and the state rate against ``update_rate_hz`` +- RATE_TOLERANCE;
- a CAN channel given as ``ROBSTRIDE_CAN=<interface>:<channel>[:<bitrate>]`` (python-can
  names, e.g. ``socketcan:can0:1000000``) with ``ROBSTRIDE_MOTOR_IDS=1,2``, or the channel of
  a running node when it is a SocketCAN one: the kernel's view of the interface (present, a
  CAN device, up, bitrate, restart-ms, error state and counters, bus-off), a serial USB-CAN
  adapter where a SocketCAN interface was expected (sirwart/robstride#1), and on the bus which
  motor IDs answer a device-ID request within ANSWER_S and the age of their feedback.

Each finding is one line with the fix.
"""

import json
import os
import stat
import subprocess
import time
from typing import (Any, Callable, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple,
                    TYPE_CHECKING)

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.link import emit
from ros2doctor.api.link import Finding
from ros2doctor.api.link import node_parameters
from ros2doctor.api.link import nodes_named
from ros2doctor.api.link import private_node_name
from ros2doctor.api.link import rate_finding
from ros2doctor.api.link import rate_from_stamps
from ros2doctor.api.link import SharedDiagnosis

if TYPE_CHECKING:     # python-can is imported by probe_motors only
    import can

NODE_NAME = 'robstride_hardware_interface'
STATE_TYPE = 'robstride_interfaces/msg/RobstrideState'
MEASURE_S = 1.0
RATE_TOLERANCE = 0.05
ANSWER_S = 0.05
FEEDBACK_LISTEN_S = 0.1
HOST_ID = 0xFD
ENV_CAN = 'ROBSTRIDE_CAN'
ENV_IDS = 'ROBSTRIDE_MOTOR_IDS'
ARPHRD_CAN = 280
SYS_NET = '/sys/class/net'
SYS_TTY = '/sys/class/tty'
# USB serial chips of USB-CAN adapters that are serial devices, not SocketCAN ones (the
# RobStride adapter is a CH340; sirwart/robstride#1).
SERIAL_CHIPS = {('1a86', '7523'): 'QinHeng CH340', ('1a86', '5523'): 'QinHeng CH341',
                ('1a86', '55d3'): 'QinHeng CH343', ('0403', '6001'): 'FTDI FT232',
                ('10c4', 'ea60'): 'Silicon Labs CP210x', ('0483', '5740'): 'STM32 virtual COM'}
PARAMS = ('can_interface', 'can_channel', 'can_bitrate', 'can_ids', 'update_rate_hz')
COMM_STATES = {-1: 'BUS_NOT_OPEN', -2: 'SEND_FAIL'}
PREFIX = 'RobStride'
#: ``ip -details -json link show``'s entry of one interface (parsed JSON).
LinkEntry = Dict[str, Any]


class UsbIds(NamedTuple):
    """USB vendor and product id of a device, as sysfs spells them ('1a86', '7523')."""

    vendor: str
    product: str


class CanConfig:
    """A python-can interface, channel and bitrate (0: the interface's own) and motor IDs."""

    def __init__(self, interface: str, channel: str, bitrate: int = 0,
                 motor_ids: Sequence[int] = (), origin: str = ENV_CAN):
        """Hold the configuration; ``origin`` says where it came from (env or a node)."""
        self.interface = interface
        self.channel = channel
        self.bitrate = int(bitrate or 0)
        self.motor_ids = list(motor_ids)
        self.origin = origin

    def __str__(self) -> str:
        """Return ``interface channel`` as python-can names them."""
        return f'{self.interface} {self.channel}'


def config_from_env(environ: Mapping[str, str] = os.environ
                    ) -> Tuple[Optional[CanConfig], Optional[str]]:
    """Return (the ROBSTRIDE_CAN configuration or None, the reason it is malformed or None)."""
    text = environ.get(ENV_CAN, '').strip()
    if not text:
        return None, None
    parts = text.split(':')
    # a channel may itself hold ':' (a serial device is a path: no ':' there)
    if len(parts) < 2 or not parts[0] or not parts[1]:
        return None, (f'{ENV_CAN}={text!r} is not <interface>:<channel>[:<bitrate>]: '
                      f'e.g. {ENV_CAN}=socketcan:can0:1000000.')
    bitrate = 0
    if len(parts) > 2:
        if not parts[2].isdigit():
            return None, f'{ENV_CAN}={text!r}: the bitrate {parts[2]!r} is not an integer.'
        bitrate = int(parts[2])
    ids_text = environ.get(ENV_IDS, '').strip()
    try:
        ids = [int(x) for x in ids_text.split(',') if x.strip()]
    except ValueError:
        return None, f'{ENV_IDS}={ids_text!r} is not a comma-separated list of CAN ids.'
    return CanConfig(parts[0], parts[1], bitrate, ids), None


# -- the kernel's view of a SocketCAN interface ---------------------------------------------

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


# -- on the bus -----------------------------------------------------------------------------

def probe_motors(config: CanConfig, open_bus: Optional[Callable[[], 'can.BusABC']] = None,
                 answer_s: float = ANSWER_S,
                 listen_s: float = FEEDBACK_LISTEN_S
                 ) -> Tuple[List[Finding], Dict[str, str]]:
    """
    Ask each configured motor ID for its device ID and listen for feedback frames.

    Without configured IDs every ID 1..127 is asked and nothing is missing. Returns
    (findings, report items: one per motor with its answer time and feedback age).
    """
    from . import protocol as proto
    from .canbus import from_message, open_python_can, to_message
    out: List[Finding] = []
    items: Dict[str, str] = {}
    try:
        bus = (open_bus or (lambda: open_python_can(config.interface, config.channel,
                                                    config.bitrate)))()
    except Exception as exc:     # noqa: B902 - any driver error: the bus cannot be opened
        text = ' '.join(str(exc).split()) or type(exc).__name__
        out.append(('error', f'cannot open CAN bus {config}: {text[:160]}: check the '
                             'python-can interface and channel names and the permissions.'))
        return out, items
    asked = config.motor_ids or list(range(1, 128))
    answers: Dict[int, float] = {}
    feedback: Dict[int, float] = {}
    try:
        start = time.monotonic()
        for motor_id in asked:
            try:
                bus.send(to_message(proto.encode_get_id(HOST_ID, motor_id)), timeout=0.01)
            except Exception as exc:     # noqa: B902 - a send the bus refuses
                out.append(('error', f'CAN send on {config} failed ({type(exc).__name__}): no '
                                     'ACK on the bus: check motor power, wiring, termination '
                                     'and the bitrate.'))
                return out, items
        end = start + answer_s + listen_s
        while True:
            left = end - time.monotonic()
            if left <= 0:
                break
            frame = from_message(bus.recv(timeout=left))
            now = time.monotonic()
            if frame is None:
                continue
            if frame.comm_type == proto.CommType.GET_ID:
                try:
                    motor_id, _ = proto.decode_device_id_reply(frame)
                except proto.ProtocolError:
                    continue
                if now - start <= answer_s:
                    answers.setdefault(motor_id, now - start)
            elif frame.comm_type == proto.CommType.FEEDBACK:
                feedback[proto.feedback_motor_id(frame)] = now
    finally:
        bus.shutdown()
    done = time.monotonic()
    for motor_id in sorted(set(asked) if config.motor_ids else set(answers)):
        age = f'{(done - feedback[motor_id]) * 1000:.0f} ms' if motor_id in feedback \
            else 'none (nothing commands it)'
        if motor_id in answers:
            items[f'motor {motor_id}'] = (f'answers in {answers[motor_id] * 1000:.1f} ms, '
                                          f'feedback age {age}')
        else:
            items[f'motor {motor_id}'] = f'no answer within {answer_s * 1000:.0f} ms'
            out.append(('error', f'motor {motor_id} does not answer a device-ID request within '
                                 f'{answer_s * 1000:.0f} ms on {config}: check its power and '
                                 f'CAN id (`robstride_cli scan --interface {config.interface} '
                                 f'--channel {config.channel}`), the wiring and the bitrate.'))
    if not config.motor_ids and not answers:
        out.append(('error', f'no motor answers a device-ID request on {config}: check motor '
                             'power, wiring, termination and the bitrate.'))
    return out, items


def can_findings(config: CanConfig, open_bus: Optional[Callable[[], 'can.BusABC']] = None, *,
                 sys_net: str = SYS_NET, sys_tty: str = SYS_TTY,
                 details: Callable[[str], Optional[LinkEntry]] = ip_link_details
                 ) -> Tuple[List[Finding], Dict[str, str]]:
    """Return (findings, report items) of a CAN link: kernel state, then the motors."""
    out, items = kernel_findings(config, sys_net, sys_tty, details)
    if any(level == 'error' for level, _ in out):
        return out, items
    more, shown = probe_motors(config, open_bus)
    items.update(shown)
    return out + more, items


# -- the ROS side ---------------------------------------------------------------------------

class StateMeasurement:
    """MEASURE_S of one node's ~/robstride_state: stamps and the last sample."""

    def __init__(self, node: Any, topic: str, seconds: float = MEASURE_S) -> None:
        """Listen to ``topic`` on a node of ``node``'s context for ``seconds``."""
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from robstride_interfaces.msg import RobstrideState

        from .qos import STATE_QOS
        self.stamps: List[int] = []
        self.last: Any = None      # the last RobstrideState
        listener = rclpy.create_node(private_node_name('robstride_doctor'),
                                     context=node.context, start_parameter_services=False)
        executor = SingleThreadedExecutor(context=node.context)
        executor.add_node(listener)
        try:
            listener.create_subscription(RobstrideState, topic, self._sample, STATE_QOS)
            start = time.monotonic()
            while time.monotonic() - start < seconds:
                executor.spin_once(timeout_sec=0.05)
        finally:
            executor.shutdown()
            listener.destroy_node()

    def _sample(self, msg: Any) -> None:
        self.stamps.append(msg.header.stamp.sec * 1_000_000_000 + msg.header.stamp.nanosec)
        self.last = msg


def _fault_names(bits: int) -> str:
    """Return the names of the fault bits set in ``bits`` (protocol.FAULT_* constants)."""
    from . import protocol
    flags = sorted((value, name) for name, value in vars(protocol).items()
                   if name.startswith('FAULT_') and name != 'FAULT_DEFINED_BITS'
                   and isinstance(value, int) and value > 0 and value & (value - 1) == 0)
    names = [name[len('FAULT_'):].lower().replace('_', ' ') for value, name in flags
             if bits & value]
    return ', '.join(names) or f'0x{bits:X}'


def node_findings(fqn: str, params: Optional[Dict[str, Any]], measurement: StateMeasurement
                  ) -> Tuple[List[Finding], Dict[str, str]]:
    """Return (findings, report items) of one running hardware interface node."""
    out: List[Finding] = []
    topic = fqn + '/robstride_state'
    items: Dict[str, str] = {}
    if params is not None:
        items['bus'] = f"{params.get('can_interface')} {params.get('can_channel')}"
        items['motor ids'] = ', '.join(str(i) for i in params.get('can_ids') or [])
    msg = measurement.last
    nominal = float((params or {}).get('update_rate_hz') or 0.0)
    rate = rate_from_stamps(measurement.stamps)
    items['state rate'] = 'no samples' if rate is None else f'{rate:.1f} Hz' + (
        f' (update_rate_hz {nominal:g})' if nominal else '')
    if nominal:
        found = rate_finding(topic, rate, nominal, RATE_TOLERANCE, MEASURE_S,
                             'check update_rate_hz and the host load (`chrt -f 10` keeps the '
                             'cycle on time).')
        if found:
            out.append(found)
    elif rate is None:
        out.append(('error', f'{topic}: no samples in {MEASURE_S:g} s: the node is stalled '
                             '(or publishes with use_sim_time and no /clock).'))
    if msg is None:
        return out, items
    items['comm_state'] = f'{msg.comm_state} ({COMM_STATES.get(msg.comm_state, "OK")})'
    bus = items.get('bus', 'its CAN bus')
    if msg.comm_state == -1:
        out.append(('error', f'{fqn} reports comm_state -1 (bus not open) on {bus}: the adapter '
                             'is missing or down; see the CAN findings or `ip -details link '
                             'show`.'))
    elif msg.comm_state == -2:
        out.append(('error', f'{fqn} reports comm_state -2 (send failing) on {bus}: frames '
                             'are not acknowledged: check motor power, wiring, termination and '
                             'the bitrate.'))
    for cid, enabled, run_state, bits in zip(msg.id, msg.enabled, msg.run_state,
                                             msg.fault_bits):
        items[f'motor {cid}'] = (f"{'enabled' if enabled else 'disabled'}, run_state "
                                 f'{run_state}, fault_bits 0x{bits:X}')
        if bits:
            out.append(('error', f'{fqn}: motor {cid} reports faults ({_fault_names(bits)}): '
                                 f'fix the cause, then `robstride_cli reboot {cid}` clears '
                                 'them.'))
        elif not enabled and msg.comm_state == 0:
            out.append(('warning', f'{fqn}: motor {cid} is not enabled (run_state {run_state}): '
                                   'it is stale or torque is off (`robstride_cli torque on`, '
                                   '`robstride_cli reactivate`).'))
    return out, items


# -- check and report -----------------------------------------------------------------------

class _Diagnosis:
    """Every finding and report section of one run (the check and the report share it)."""

    def __init__(self) -> None:
        self.findings: List[Finding] = []
        self.sections: List[Tuple[str, Dict[str, str]]] = []
        self.running = False


def diagnose(open_bus: Optional[Callable[[], 'can.BusABC']] = None,
             environ: Mapping[str, str] = os.environ) -> _Diagnosis:
    """Diagnose the running nodes and the configured CAN channel (see the module docstring)."""
    result = _Diagnosis()
    config, problem = config_from_env(environ)
    if problem:
        result.running = True
        result.findings.append(('error', problem))
    with _graph() as node:
        fqns = nodes_named(node, NODE_NAME)
        for fqn in fqns:
            result.running = True
            params = node_parameters(node, fqn, PARAMS)
            found, items = node_findings(fqn, params, StateMeasurement(
                node, fqn + '/robstride_state'))
            result.findings += found
            result.sections.append((fqn, items))
            if config is None and params and params.get('can_interface') == 'socketcan':
                more, shown = kernel_findings(CanConfig(
                    'socketcan', str(params.get('can_channel')), int(params.get('can_bitrate')
                                                                     or 0), origin=fqn))
                result.findings += more
                result.sections.append((f"socketcan {params.get('can_channel')}", shown))
    if config is not None:
        result.running = True
        found, items = can_findings(config, open_bus)
        result.findings += found
        result.sections.append((str(config), items))
    return result


def _graph() -> Any:
    from ros2doctor.api import graph_node
    return graph_node()


# The check runs it fresh; its report, beside it, shares that run.
_shared = SharedDiagnosis(diagnose)


class RobstrideCheck(DoctorCheck):  # type: ignore[misc,unused-ignore]  # ros2doctor: no hints
    """Check the RobStride link: CAN interface, motors answering, the node's state."""

    def category(self) -> str:
        """Return 'robstride'."""
        return 'robstride'

    def check(self) -> Result:
        """Return an error per broken link, a warning per doubtful one; nothing if none runs."""
        return emit(PREFIX, _shared.get(fresh=True).findings)


class RobstrideReport(DoctorReport):  # type: ignore[misc,unused-ignore]  # ros2doctor: no hints
    """Report the RobStride link: per node and per CAN channel what was found."""

    def category(self) -> str:
        """Return 'robstride'."""
        return 'robstride'

    def report(self) -> Report:
        """Return the ROBSTRIDE report; 'not running' without a node or a channel."""
        report = Report('ROBSTRIDE')
        run = _shared.get()
        if not run.running:
            report.add_to_report('status', f'not running (no {NODE_NAME} node; set '
                                           f'{ENV_CAN}=socketcan:can0 to check a bus)')
        for title, items in run.sections:
            report.add_to_report('link', title)
            for name, value in items.items():
                report.add_to_report(name, value)
        return report
