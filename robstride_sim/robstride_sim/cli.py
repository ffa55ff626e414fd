"""robstride_cli: a technician's command line for robstride_hardware_interface.

    robstride_cli get 1 temperature
    robstride_cli set 1 0x7016 1.5
    robstride_cli zero 1
    robstride_cli reboot 1
    robstride_cli torque off
    robstride_cli state
    robstride_cli reactivate
    robstride_cli sim sim.bus_voltage 10      (simulator only: set a node parameter)

Exit status: 0 done, 1 rejected by the node (result=false), 2 bad usage, 3 node unreachable
or no answer within --timeout.
"""
import argparse
import sys

import rclpy
import yaml

from .client import (CallTimeoutError, DEFAULT_PREFIX, RequestRejectedError, RobstrideClient,
                     ServiceUnavailableError, check_id, check_set_item)
from .params import ParamError

EXIT_OK, EXIT_REJECTED, EXIT_USAGE, EXIT_UNREACHABLE = 0, 1, 2, 3


def _can_id(text):
    try:
        return check_id(int(text, 0))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _set_item(text):
    try:
        return check_set_item(text)
    except ParamError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _on_off(text):
    value = text.strip().lower()
    if value in ('on', 'true', '1', 'enable'):
        return True
    if value in ('off', 'false', '0', 'disable'):
        return False
    raise argparse.ArgumentTypeError(f'expected on or off, got {text!r}')


def build_parser():
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
    return parser


def format_state(msg) -> str:
    lines = [f'comm_state {msg.comm_state}', 'id  enabled  run_state  fault_bits']
    for cid, en, rs, fb in zip(msg.id, msg.enabled, msg.run_state, msg.fault_bits):
        lines.append(f'{cid:<3} {str(bool(en)):<8} {rs:<10} 0x{fb:X}')
    return '\n'.join(lines)


def run(args, client) -> int:
    cmd = args.command
    if cmd == 'get':
        print(f'{client.get(args.id, args.item):g}')
    elif cmd == 'set':
        client.set(args.id, args.item, args.value)
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


def main(argv=None):
    args = build_parser().parse_args(argv)
    rclpy.init(args=[])
    try:
        with RobstrideClient(args.prefix, timeout_sec=args.timeout) as client:
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
    except KeyboardInterrupt:
        return EXIT_UNREACHABLE
    finally:
        rclpy.try_shutdown()


if __name__ == '__main__':
    sys.exit(main())
