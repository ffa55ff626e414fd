# SPDX-License-Identifier: Apache-2.0
"""
robstride_cli: a technician's command line for robstride_hardware_interface.

    robstride_cli get 1 temperature
    robstride_cli set 1 0x7016 1.5
    robstride_cli zero 1
    robstride_cli reboot 1
    robstride_cli torque off
    robstride_cli state
    robstride_cli reactivate
    robstride_cli sim sim.bus_voltage 10      (simulator only: set a node parameter)
    robstride_cli scan --interface socketcan --channel can0    (on the bus, no ROS)

Exit status: 0 done (or stopped by SIGINT/SIGTERM), 1 rejected by the node (result=false) or
no motor answered a scan, 2 bad usage, 3 node unreachable, no answer within --timeout, or
the CAN bus cannot be opened.
"""
import argparse
import sys
import time
from typing import Any, Callable, Dict, Optional, Sequence, TYPE_CHECKING

from node_runtime import runner

from .client import (CallTimeoutError, check_set_item, DEFAULT_PREFIX, RequestRejectedError,
                     RobstrideClient, ServiceUnavailableError)
from .params import ParamError

if TYPE_CHECKING:     # python-can is imported by `scan` only (start-up time)
    import can

EXIT_OK, EXIT_REJECTED, EXIT_USAGE, EXIT_UNREACHABLE = 0, 1, 2, 3


def _can_id(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 0 <= int(text) <= 255:
        raise argparse.ArgumentTypeError(f'CAN id {text[:20]!r} is not an integer in 0..255')
    return int(text)


def _set_item(text: str) -> str:
    try:
        return check_set_item(text)
    except ParamError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _on_off(text: str) -> bool:
    value = text.strip().lower()
    if value in ('on', 'true', '1', 'enable'):
        return True
    if value in ('off', 'false', '0', 'disable'):
        return False
    raise argparse.ArgumentTypeError(f'expected on or off, got {text!r}')


def build_parser() -> argparse.ArgumentParser:
    """Command line of robstride_cli."""
    parser = argparse.ArgumentParser(
        prog='robstride_cli',
        description='Talk to robstride_hardware_interface (simulated or real) over ROS 2.')
    parser.add_argument('--prefix', default=DEFAULT_PREFIX,
                        help=f'node namespace + name of the services (default {DEFAULT_PREFIX})')
    parser.add_argument('--timeout', type=float, default=3.0,
                        help='seconds to wait for the node and for each answer (default 3)')
    sub = parser.add_subparsers(dest='command', required=True)
    p = sub.add_parser('get', help='read position|velocity|torque|effort|temperature|'
                                   'run_state|fault_bits')
    p.add_argument('id', type=_can_id)
    p.add_argument('item')
    p = sub.add_parser('set', help='write kp, kd or a parameter index (hex 0x7016 or decimal)')
    p.add_argument('id', type=_can_id)
    p.add_argument('item', type=_set_item)
    p.add_argument('value', type=float)
    p = sub.add_parser('zero', help='current position becomes the mechanical zero')
    p.add_argument('id', type=_can_id)
    p = sub.add_parser('reboot', help='clear latched faults (Stop with clear-fault flag)')
    p.add_argument('id', type=_can_id)
    p = sub.add_parser('torque', help='torque on/off for all joints (~/set_torque)')
    p.add_argument('state', type=_on_off)
    sub.add_parser('reactivate', help='recover after a joint loss (~/reactivate)')
    sub.add_parser('state', help='print one ~/robstride_state sample')
    p = sub.add_parser('sim', help='set a node parameter, e.g. sim.hung "[true, false]"')
    p.add_argument('name')
    p.add_argument('value', help='YAML value: 10, 2.5, true, "[0, 4]"')
    p = sub.add_parser('scan', help='list the motors on a CAN bus (device-id request to '
                                    'every id; talks to the bus, not to the node)')
    p.add_argument('--interface', default='socketcan',
                   help='python-can interface (socketcan, pcan, slcan, virtual, ...)')
    p.add_argument('--channel', default='can0')
    p.add_argument('--bitrate', type=int, default=0,
                   help='bit/s; 0 keeps the interface setting (socketcan)')
    p.add_argument('--host-id', type=_can_id, default=0xFD)
    p.add_argument('--wait', type=float, default=0.5,
                   help='seconds to collect replies after the last request (default 0.5)')
    return parser


def scan(args: argparse.Namespace,
         open_bus: Optional[Callable[[], 'can.BusABC']] = None) -> int:
    """Send a device-id request to ids 1..127 and print every motor that answers."""
    from . import protocol as proto
    from .canbus import from_message, open_python_can, to_message
    try:
        bus = (open_bus or (lambda: open_python_can(args.interface, args.channel,
                                                    args.bitrate)))()
    except Exception as exc:      # noqa: B902 - any driver error: the bus cannot be opened
        print(f'unreachable: cannot open {args.interface} {args.channel!r}: {exc}',
              file=sys.stderr)
        return EXIT_UNREACHABLE
    found: Dict[int, bytes] = {}
    try:
        for motor_id in range(1, 128):
            try:
                bus.send(to_message(proto.encode_get_id(args.host_id, motor_id)), timeout=0.05)
            except Exception as exc:  # noqa: B902
                print(f'unreachable: CAN send failed: {exc}', file=sys.stderr)
                return EXIT_UNREACHABLE
        end = time.monotonic() + max(0.0, args.wait)
        while time.monotonic() < end:
            frame = from_message(bus.recv(timeout=max(0.0, end - time.monotonic())))
            if frame is None:
                continue
            try:
                motor_id, mcu_id = proto.decode_device_id_reply(frame)
            except proto.ProtocolError:
                continue
            found[motor_id] = mcu_id
    finally:
        bus.shutdown()
    if not found:
        print(f'no motor answered on {args.interface} {args.channel!r}', file=sys.stderr)
        return EXIT_REJECTED
    print('id   mcu_id')
    for motor_id in sorted(found):
        print(f'{motor_id:<4} {found[motor_id].hex()}')
    return EXIT_OK


def format_state(msg: Any) -> str:
    """One ~/robstride_state sample as a table."""
    lines = [f'comm_state {msg.comm_state}', 'id  enabled  run_state  fault_bits']
    for cid, en, rs, fb in zip(msg.id, msg.enabled, msg.run_state, msg.fault_bits):
        lines.append(f'{cid:<3} {str(bool(en)):<8} {rs:<10} 0x{fb:X}')
    return '\n'.join(lines)


def run(args: argparse.Namespace, client: RobstrideClient) -> int:
    """Run one node verb through the client."""
    import yaml
    cmd = args.command
    if cmd == 'get':
        print(f'{client.get(args.id, args.item):g}')
    elif cmd == 'set':
        client.set_data(args.id, args.item, args.value)
    elif cmd == 'zero':
        client.set_zero(args.id)
    elif cmd == 'reboot':
        client.reboot(args.id)
    elif cmd == 'torque':
        print(client.set_torque(args.state))
    elif cmd == 'reactivate':
        print(client.reactivate())
    elif cmd == 'state':
        print(format_state(client.state()))
    elif cmd == 'sim':
        client.set_parameters({args.name: yaml.safe_load(args.value)})
    return EXIT_OK


def main(argv: Optional[Sequence[str]] = None, context: Any = None) -> int:
    """
    Parse the command line and run the verb; returns the exit status.

    context: an initialised rclpy context to talk through, left running (a program or a
    test that already has one: its DDS participant has discovered the node); by default
    rclpy's own context, initialised here and shut down at the end (node_runtime.runner's
    run_command: a stop at any moment exits 0, any other failure 1 with one line).
    """
    args = build_parser().parse_args(argv)
    if args.command == 'scan':
        return scan(args)

    def command(session: runner.RosSession) -> int:
        try:
            with RobstrideClient(args.prefix, timeout_sec=args.timeout,
                                 context=session.context) as client:
                return run(args, client)
        except RequestRejectedError as exc:
            print(f'rejected: {exc}', file=sys.stderr)
            return EXIT_REJECTED
        except (ServiceUnavailableError, CallTimeoutError) as exc:
            print(f'unreachable: {exc}', file=sys.stderr)
            return EXIT_UNREACHABLE
        except (ValueError, TypeError) as exc:
            print(f'bad value: {exc}', file=sys.stderr)
            return EXIT_USAGE
    # The launcher runs this in its interrupt mode (a signal raises KeyboardInterrupt in
    # a wait for an answer: status 0 at once), so the handlers stay as they are.
    return runner.run_command(command, [], prog='robstride_cli', context=context,
                              signals='keep')


if __name__ == '__main__':
    sys.exit(main())
