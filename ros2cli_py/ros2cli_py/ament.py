# SPDX-License-Identifier: Apache-2.0
"""Packages, executables and interface files from the ament index."""

import os
import sys
from typing import Dict, List, Sequence, Set, Tuple

from ament_index_python.packages import get_package_prefix
from ament_index_python.packages import get_packages_with_prefixes
from ament_index_python.packages import PackageNotFoundError
from ament_index_python.resources import get_resource
from ament_index_python.resources import get_resources

from ros2cli_py.errors import CommandError

INTERFACE_KINDS = ('msg', 'srv', 'action')


def add_toolchain_prefix() -> None:
    """
    Put the interpreter's own prefix (the PyPI venv) on AMENT_PREFIX_PATH if it has an index.

    The ROS 2 wheels install their packages (rcl_interfaces, std_msgs, ...) into the venv's
    share/ament_index; sourcing the workspace alone does not name that prefix.
    """
    if not os.path.isdir(os.path.join(sys.prefix, 'share', 'ament_index')):
        return
    paths = [p for p in os.environ.get('AMENT_PREFIX_PATH', '').split(os.pathsep) if p]
    if os.path.realpath(sys.prefix) not in {os.path.realpath(p) for p in paths}:
        paths.append(sys.prefix)
        os.environ['AMENT_PREFIX_PATH'] = os.pathsep.join(paths)


def package_names() -> List[str]:
    """Sorted names of every package in the ament index."""
    return sorted(get_packages_with_prefixes())


def package_prefix(name: str) -> str:
    """Install prefix of a package, or CommandError 'Package not found'."""
    try:
        return get_package_prefix(name)
    except (PackageNotFoundError, ValueError):
        raise CommandError('Package not found') from None


def executable_paths(package: str) -> List[str]:
    """List the executable files below <prefix>/lib/<package>, sorted like ros2pkg."""
    base = os.path.join(package_prefix(package), 'lib', package)
    found = []
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
        for filename in sorted(filenames):
            path = os.path.join(dirpath, filename)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                found.append(path)
    return found


def interface_packages() -> List[str]:
    """Sorted names of the packages that register interfaces."""
    return sorted(get_resources('rosidl_interfaces'))


def package_interfaces(package: str) -> Dict[str, List[str]]:
    """{kind: sorted names} of one package's interfaces; CommandError if it has none."""
    try:
        content, _ = get_resource('rosidl_interfaces', package)
    except LookupError:
        raise CommandError(f"Unknown package '{package}'") from None
    result: Dict[str, Set[str]] = {kind: set() for kind in INTERFACE_KINDS}
    for line in content.splitlines():
        line = line.strip()
        if not line:
            continue
        kind, _, filename = line.partition('/')
        stem, _ = os.path.splitext(filename)
        if kind in result and stem:
            result[kind].add(stem)
    return {kind: sorted(names) for kind, names in result.items()}


def all_interfaces() -> Dict[str, Dict[str, List[str]]]:
    """{package: {kind: names}} of every interface package."""
    return {pkg: package_interfaces(pkg) for pkg in interface_packages()}


def resolve_interface(identifier: str,
                      kinds: Sequence[str] = INTERFACE_KINDS) -> Tuple[str, str, str]:
    """
    (package, kind, name) of 'pkg/kind/Name', or of the short form 'pkg/Name'.

    The short form picks the first of ``kinds`` the package defines the name in.
    """
    parts = identifier.split('/')
    if len(parts) not in (2, 3) or not all(parts):
        raise CommandError(
            f"Invalid name '{identifier}'. Expected three parts separated by '/'")
    package = parts[0]
    if len(parts) == 3 and parts[1] not in kinds:
        raise CommandError(
            f"Invalid name '{identifier}'. Expected "
            + ' or '.join(f"'{package}/{k}/<name>'" for k in kinds))
    interfaces = package_interfaces(package)
    if len(parts) == 3:
        if parts[2] in interfaces[parts[1]]:
            return package, parts[1], parts[2]
    else:
        for kind in kinds:
            if parts[1] in interfaces[kind]:
                return package, kind, parts[1]
    # as ros2cli (rosidl_runtime_py.get_interface_path): the .idl file it looked for
    kind = parts[1] if len(parts) == 3 else 'msg'
    path = os.path.join(package_prefix(package), 'share', package, kind, f'{parts[-1]}.idl')
    raise CommandError(f"Could not find the interface '{path}'")


def interface_file(package: str, kind: str, name: str) -> str:
    """Path of the installed .msg/.srv/.action definition."""
    path = os.path.join(package_prefix(package), 'share', package, kind, f'{name}.{kind}')
    if not os.path.isfile(path):
        raise CommandError(f"Could not find the interface '{path}'")
    return path
