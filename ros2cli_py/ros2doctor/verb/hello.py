# SPDX-License-Identifier: Apache-2.0
"""
``ros2 doctor hello``: whether this host and the others hear each other.

Each emit period it publishes one ``std_msgs/String`` "hello, it's me <host>" on a topic and
sends the same text to a UDP multicast group; it counts what it hears from other hosts on
both paths and prints a summary table every print period. Run it on two hosts at once: a
host missing from "Subscribed from" but present in "Received from" has a DDS problem
(domain, discovery range, profile); missing from both, a network problem (route, firewall,
multicast off).
"""

from argparse import ArgumentTypeError
import os
import re
import select
import socket
import struct
import threading
import time
from typing import Callable
from typing import Dict
from typing import Optional

from ros2cli_py.errors import CommandError
from ros2doctor.verb import VerbExtension

DEFAULT_GROUP = '225.0.0.1'
DEFAULT_PORT = 49150


def node_name() -> str:
    """Return the verb's node name: ros2doctor_<host>_<pid>_node (host sanitized)."""
    host = re.sub(r'[^0-9a-zA-Z_]', '_', socket.gethostname())
    return f'ros2doctor_{host}_{os.getpid()}_node'


def positive(type_: type) -> Callable[[str], object]:
    """Return an argparse type: a positive ``type_`` (int or float)."""
    def coerce(text: str):
        try:
            value = type_(text)
        except ValueError:
            value = -1
        if value <= 0:
            raise ArgumentTypeError(f'value must be a positive {type_.__name__}')
        return value
    return coerce


positive_float = positive(float)
positive_int = positive(int)


def hello_text() -> str:
    """Return the text every hello carries: it names this host last."""
    return f"hello, it's me {socket.gethostname()}"


class HelloVerb(VerbExtension):
    """Check network connectivity between multiple hosts (a topic and UDP multicast)."""

    def add_arguments(self, parser, cli_name: str) -> None:
        """Add hello's options (ros2doctor's)."""
        parser.add_argument(
            '-t', '--topic', nargs='?', default='/canyouhearme',
            help="Name of ROS topic to publish to (default: '/canyouhearme')")
        parser.add_argument(
            '-ep', '--emit-period', metavar='N', type=positive_float, default=0.1,
            help='Time period to publish/send one message (default: 0.1s)')
        parser.add_argument(
            '-pp', '-pi', '--print-period', metavar='N', type=positive_float, default=1.0,
            help='Time period to print summary table (default: 1.0s)')
        parser.add_argument(
            '--ttl', type=positive_int,
            help='TTL for multicast send (default: None)')
        parser.add_argument(
            '-1', '--once', action='store_true', default=False,
            help='Publish and multicast send for one emit period then exit; used in test case.')

    def main(self, *, args, summary_table: Optional['SummaryTable'] = None) -> int:
        """Publish, send and count until stopped (or one emit period with --once)."""
        from ros2cli_py.graph import CliNode
        from ros2cli_py.graph import expand_topic
        summary = SummaryTable() if summary_table is None else summary_table
        topic = expand_topic(args.topic or '/canyouhearme')
        sender = receiver = None
        with CliNode(name=node_name()) as cli:
            try:
                publisher = HelloPublisher(cli.node, topic, summary)
                HelloSubscriber(cli.node, topic, summary)
                sender = HelloMulticastUDPSender(summary, ttl=args.ttl)
                receiver = HelloMulticastUDPReceiver(summary)
                next_print = time.monotonic() + args.print_period
                while True:
                    if time.monotonic() >= next_print:
                        summary.format_print_summary(topic, args.print_period)
                        summary.reset()
                        next_print += args.print_period
                    publisher.publish()
                    sender.send()
                    end = time.monotonic() + args.emit_period
                    while time.monotonic() < end:
                        cli.spin_once(min(0.01, max(0.0, end - time.monotonic())))
                        receiver.poll()
                    if args.once:
                        summary.format_print_summary(topic, args.print_period)
                        return 0
            finally:
                for part in (receiver, sender):
                    if part is not None:
                        part.shutdown()


class HelloPublisher:
    """Publish the hello text on a std_msgs/String topic (system default QoS)."""

    def __init__(self, node, topic: str, summary_table: 'SummaryTable'):
        """Create the publisher on ``node``."""
        from rclpy.qos import qos_profile_system_default
        from std_msgs.msg import String
        self._summary = summary_table
        self._message = String
        self._pub = node.create_publisher(String, topic, qos_profile_system_default)

    def publish(self) -> None:
        """Publish one hello and count it."""
        self._summary.increment_pub()
        self._pub.publish(self._message(data=hello_text()))


class HelloSubscriber:
    """Count the hellos of other hosts on the topic."""

    def __init__(self, node, topic: str, summary_table: 'SummaryTable'):
        """Create the subscription on ``node``."""
        from rclpy.qos import qos_profile_system_default
        from std_msgs.msg import String
        self._summary = summary_table
        self._sub = node.create_subscription(String, topic, self._callback,
                                             qos_profile_system_default)

    def _callback(self, msg) -> None:
        words = msg.data.split()
        host = words[-1] if words else ''
        if host and host != socket.gethostname():
            self._summary.increment_sub(host)


class HelloMulticastUDPSender:
    """Send the hello text to a multicast group."""

    def __init__(self, summary_table: 'SummaryTable', group: str = DEFAULT_GROUP,
                 port: int = DEFAULT_PORT, ttl: Optional[int] = None):
        """Open the sending socket (with ``ttl`` hops when given)."""
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        try:
            if ttl is not None:
                self._socket.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_TTL,
                                        struct.pack('b', min(ttl, 127)))
        except OSError as e:
            self._socket.close()
            raise CommandError(f'Unable to set the multicast TTL: {e}') from None
        self._summary = summary_table
        self._address = (group, port)
        self._failed = False

    def send(self) -> None:
        """Send one hello and count it; a send that fails is said once, not counted."""
        try:
            self._socket.sendto(hello_text().encode('utf-8'), self._address)
        except OSError as e:
            if not self._failed:
                print(f'Multicast send to {self._address[0]}:{self._address[1]} failed: '
                      f'{e.strerror or e} (no multicast route?)', flush=True)
                self._failed = True
            return
        self._summary.increment_send()

    def shutdown(self) -> None:
        """Close the socket."""
        self._socket.close()


class HelloMulticastUDPReceiver:
    """Receive the hellos of other hosts from a multicast group."""

    def __init__(self, summary_table: 'SummaryTable', group: str = DEFAULT_GROUP,
                 port: int = DEFAULT_PORT):
        """Join ``group`` on ``port`` (shared with other receivers on this host)."""
        self._socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM, socket.IPPROTO_UDP)
        try:
            self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if hasattr(socket, 'SO_REUSEPORT'):
                self._socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            self._socket.bind(('', port))
            self._membership = struct.pack('4sl', socket.inet_aton(group), socket.INADDR_ANY)
            self._socket.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                                    self._membership)
            self._socket.setblocking(False)
        except OSError as e:
            self._socket.close()
            raise CommandError(f'Unable to join multicast group {group} on port {port}: '
                               f'{e.strerror or e}') from None
        self._summary = summary_table
        self._closed = False

    def poll(self) -> None:
        """Count every hello waiting on the socket (never blocks)."""
        while not self._closed and select.select([self._socket], [], [], 0)[0]:
            try:
                data, _ = self._socket.recvfrom(4096)
            except (BlockingIOError, InterruptedError):
                return
            words = data.decode('utf-8', 'replace').split()
            host = words[-1] if words else ''
            if host and host != socket.gethostname():
                self._summary.increment_receive(host)

    def shutdown(self) -> None:
        """Leave the group and close the socket (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self._socket.setsockopt(socket.IPPROTO_IP, socket.IP_DROP_MEMBERSHIP,
                                    self._membership)
        except OSError:
            pass
        self._socket.close()


class SummaryTable:
    """Counts of hellos published/sent and, per host, subscribed/received."""

    def __init__(self):
        """Start with every count at zero."""
        self.lock = threading.Lock()
        self._pub = 0
        self._send = 0
        self._sub: Dict[str, int] = {}
        self._receive: Dict[str, int] = {}

    def reset(self) -> None:
        """Zero every count (after each print)."""
        with self.lock:
            self._pub = 0
            self._send = 0
            self._sub = {}
            self._receive = {}

    def increment_pub(self) -> None:
        """Count one published hello."""
        with self.lock:
            self._pub += 1

    def increment_sub(self, hostname: str) -> None:
        """Count one hello of ``hostname`` heard on the topic."""
        with self.lock:
            self._sub[hostname] = self._sub.get(hostname, 0) + 1

    def increment_send(self) -> None:
        """Count one multicast hello sent."""
        with self.lock:
            self._send += 1

    def increment_receive(self, hostname: str) -> None:
        """Count one multicast hello of ``hostname`` received."""
        with self.lock:
            self._receive[hostname] = self._receive.get(hostname, 0) + 1

    def format_print_summary(self, topic: str, print_period: float, *,
                             group: str = DEFAULT_GROUP, port: int = DEFAULT_PORT) -> None:
        """Print the table (ros2doctor's layout)."""
        def hosts(table: Dict[str, int]) -> None:
            print('{:<15} {:<20} {:<10}'.format('', 'Hostname', f'Msg Count /{print_period}s'))
            for name, count in table.items():
                print('{:<15} {:<20} {:<10}'.format('', name, count))

        with self.lock:
            print('MULTIMACHINE COMMUNICATION SUMMARY')
            print(f'Topic: {topic}, Published Msg Count: {self._pub}')
            print('Subscribed from:')
            hosts(self._sub)
            print(f'Multicast Group/Port: {group}/{port}, Sent Msg Count: {self._send}')
            print('Received from:')
            hosts(self._receive)
            print('-' * 60)
