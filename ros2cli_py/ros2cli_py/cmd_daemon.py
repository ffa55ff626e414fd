# SPDX-License-Identifier: Apache-2.0
"""ros2 daemon start | stop | status."""

from ros2cli_py import daemon


def add_daemon(parser):
    """Register the daemon verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True
    p = verbs.add_parser('start', help="Start the daemon if it isn't running")
    p.set_defaults(func=daemon_start)
    p = verbs.add_parser('stop', help='Stop the daemon if it is running')
    p.set_defaults(func=daemon_stop)
    p = verbs.add_parser('status', help='Output the status of the daemon')
    p.set_defaults(func=daemon_status)


def daemon_start(args):
    """Start the daemon of this environment's graph (ros2cli's messages)."""
    if daemon.is_running():
        print('The daemon is already running')
        return 0
    if not daemon.start():
        print('The daemon did not start', flush=True)
        return 1
    print('The daemon has been started')
    return 0


def daemon_stop(args):
    """Stop the daemon of this environment's graph."""
    if not daemon.stop():
        print('The daemon is not running')
        return 0
    print('The daemon has been stopped')
    return 0


def daemon_status(args):
    """Say whether the daemon of this environment's graph runs."""
    print('The daemon is running' if daemon.is_running() else 'The daemon is not running')
    return 0
