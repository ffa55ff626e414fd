# SPDX-License-Identifier: Apache-2.0
"""What the interface verbs share: the kind filters, and a definition with its nested types."""

import argparse
from typing import Iterator, List, Optional

from ros2cli_py import ament
from ros2cli_py.errors import CommandError
from rosidl_adapter.parser import parse_message_string

_SEPARATORS = ('---',)


def add_kind_filters(parser: argparse.ArgumentParser) -> None:
    """-m/-s/-a of list, packages and package."""
    parser.add_argument('-m', '--only-msgs', action='store_true',
                        help='Print out only the messages')
    parser.add_argument('-s', '--only-srvs', action='store_true',
                        help='Print out only the services')
    parser.add_argument('-a', '--only-actions', action='store_true',
                        help='Print out only the actions')


def selected_kinds(args: argparse.Namespace) -> List[str]:
    """Return the kinds the -m/-s/-a filters select (every kind without one)."""
    chosen = [k for k, on in (('msg', args.only_msgs), ('srv', args.only_srvs),
                              ('action', args.only_actions)) if on]
    return chosen or list(ament.INTERFACE_KINDS)


class _Line:
    """One line of a .msg/.srv/.action file, classified with rosidl_adapter's parser."""

    def __init__(self, package: str, name: str, text: str) -> None:
        self.text = text
        self.spec = None
        if text.strip() not in _SEPARATORS:
            self.spec = parse_message_string(package, name, text)
            if len(self.spec.fields) > 1:
                raise CommandError(f'Unexpected definition line: {text}')
        self.field = self.spec.fields[0] if self.spec and self.spec.fields else None

    def is_comment(self) -> bool:
        return bool(self.spec and self.spec.annotations.get('comment'))

    def trailing_comment(self) -> Optional[str]:
        if self.field is not None and self.field.annotations.get('comment'):
            comment: str = self.field.annotations['comment'][0]
            return comment
        return None

    def nested_type(self) -> Optional[str]:
        """'pkg/msg/Name' of a field of a message type (arrays included), else None."""
        if self.field is None or self.field.type.is_primitive_type():
            return None
        return f'{self.field.type.pkg_name}/msg/{self.field.type.type}'


def _lines(package: str, kind: str, name: str) -> Iterator[_Line]:
    with open(ament.interface_file(package, kind, name)) as f:
        for raw in f:
            yield _Line(package, name, raw.rstrip())


def _print_line(line: _Line, show_comments: bool, indent: int, out: List[str]) -> None:
    text = line.text
    if not show_comments:
        if not text or line.is_comment():
            return
        comment = line.trailing_comment()
        if comment is not None:
            # ros2cli cuts the line one character before the comment text.
            text = text[:text.find(comment) - 1].strip()
    out.append('\t' * indent + text if text else '')


def show_lines(identifier: str, show_comments: bool = True,
               show_nested_comments: bool = False) -> List[str]:
    """Return the lines `ros2 interface show` prints for a type, nested types expanded."""
    package, kind, name = ament.resolve_interface(identifier)
    out: List[str] = []

    def expand(pkg: str, knd: str, nm: str, comments: bool, indent: int) -> None:
        for line in _lines(pkg, knd, nm):
            _print_line(line, comments, indent, out)
            nested = line.nested_type()
            if nested:
                npkg, _, nname = nested.split('/')
                if nname not in ament.package_interfaces(npkg)['msg']:
                    raise CommandError(f"Could not find the interface '{nested}'")
                expand(npkg, 'msg', nname, show_nested_comments, indent + 1)

    expand(package, kind, name, show_comments, 0)
    return out
