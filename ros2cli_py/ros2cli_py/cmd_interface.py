# SPDX-License-Identifier: Apache-2.0
"""ros2 interface list | packages | package | show."""

import sys

from ros2cli_py import ament
from ros2cli_py.errors import CommandError
from rosidl_adapter.parser import parse_message_string

_SEPARATORS = ('---',)


def add_interface(parser):
    """Register the interface verbs."""
    verbs = parser.add_subparsers(dest='verb', metavar='Commands')
    verbs.required = True

    def kind_filters(p):
        p.add_argument('-m', '--only-msgs', action='store_true',
                       help='Print out only the messages')
        p.add_argument('-s', '--only-srvs', action='store_true',
                       help='Print out only the services')
        p.add_argument('-a', '--only-actions', action='store_true',
                       help='Print out only the actions')

    p = verbs.add_parser('list', help='List all interface types available')
    kind_filters(p)
    p.set_defaults(func=interface_list)
    p = verbs.add_parser('packages', help='Output a list of packages that provide interfaces')
    kind_filters(p)
    p.set_defaults(func=interface_packages)
    p = verbs.add_parser('package', help='Output a list of available interface types within '
                                         'one package')
    p.add_argument('package_name', help="Package name (e.g. 'example_interfaces')")
    kind_filters(p)
    p.set_defaults(func=interface_package)
    p = verbs.add_parser('show', help='Output the interface definition')
    group = p.add_mutually_exclusive_group()
    group.add_argument('--all-comments', action='store_true',
                       help='Show all comments, including for nested interface definitions')
    group.add_argument('--no-comments', action='store_true',
                       help='Show no comments or whitespace')
    p.add_argument('type', help="Show an interface definition (e.g. 'hb50_commons/msg/Status'"
                                "; 'hb50_commons/Status' works too). Passing '-' reads the "
                                "argument from stdin (e.g. 'ros2 topic type /hb50/status | "
                                "ros2 interface show -').")
    p.set_defaults(func=interface_show)


def _selected_kinds(args):
    chosen = [k for k, on in (('msg', args.only_msgs), ('srv', args.only_srvs),
                              ('action', args.only_actions)) if on]
    return chosen or list(ament.INTERFACE_KINDS)


def interface_list(args):
    """Print every interface, grouped under Messages / Services / Actions."""
    interfaces = ament.all_interfaces()
    titles = {'msg': 'Messages:', 'srv': 'Services:', 'action': 'Actions:'}
    for kind in _selected_kinds(args):
        print(titles[kind])
        for package in sorted(interfaces):
            for name in interfaces[package][kind]:
                print(f'    {package}/{kind}/{name}')
    return 0


def interface_packages(args):
    """Print the packages that provide interfaces (of the selected kinds)."""
    kinds = _selected_kinds(args)
    for package, found in sorted(ament.all_interfaces().items()):
        if any(found[k] for k in kinds):
            print(package)
    return 0


def interface_package(args):
    """Print the interfaces of one package."""
    found = ament.package_interfaces(args.package_name)
    kinds = _selected_kinds(args)
    names = sorted(f'{kind}/{name}' for kind in kinds for name in found[kind])
    for name in names:
        print(f'{args.package_name}/{name}')
    return 0


class _Line:
    """One line of a .msg/.srv/.action file, classified with rosidl_adapter's parser."""

    def __init__(self, package, name, text):
        self.text = text
        self.spec = None
        if text.strip() not in _SEPARATORS:
            self.spec = parse_message_string(package, name, text)
            if len(self.spec.fields) > 1:
                raise CommandError(f'Unexpected definition line: {text}')
        self.field = self.spec.fields[0] if self.spec and self.spec.fields else None

    def is_comment(self):
        return bool(self.spec and self.spec.annotations.get('comment'))

    def trailing_comment(self):
        if self.field is not None and self.field.annotations.get('comment'):
            return self.field.annotations['comment'][0]
        return None

    def nested_type(self):
        """'pkg/msg/Name' of a field of a message type (arrays included), else None."""
        if self.field is None or self.field.type.is_primitive_type():
            return None
        return f'{self.field.type.pkg_name}/msg/{self.field.type.type}'


def _lines(package, kind, name):
    with open(ament.interface_file(package, kind, name)) as f:
        for raw in f:
            yield _Line(package, name, raw.rstrip())


def _print_line(line, show_comments, indent, out):
    text = line.text
    if not show_comments:
        if not text or line.is_comment():
            return
        comment = line.trailing_comment()
        if comment is not None:
            # ros2cli cuts the line one character before the comment text.
            text = text[:text.find(comment) - 1].strip()
    out.append('\t' * indent + text if text else '')


def show_lines(identifier, show_comments=True, show_nested_comments=False):
    """Return the lines `ros2 interface show` prints for a type, nested types expanded."""
    package, kind, name = ament.resolve_interface(identifier)
    out = []

    def expand(pkg, knd, nm, comments, indent):
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


def interface_show(args):
    """Print an interface definition."""
    identifier = args.type
    if identifier == '-':
        if sys.stdin.isatty():
            raise CommandError('expected stdin pipe', code=2)
        identifier = sys.stdin.readline().strip()
    if not identifier:
        raise CommandError('the passed value is empty', code=2)
    lines = show_lines(identifier, show_comments=args.all_comments or not args.no_comments,
                       show_nested_comments=args.all_comments)
    for line in lines:
        print(line)
    return 0
