# SPDX-License-Identifier: Apache-2.0
"""
Package check and report, offline: installed package versions against the workspace's pins.

ros2doctor compares with the versions the rosdistro index (on the network) lists. This
workspace pins the ROS 2 wheels of each distribution in ``requirements/<distro>.txt``; the
check compares what is installed with the pins of ``ROS_DISTRO`` and the report lists both
distributions' pins. What cannot be checked (no ROS_DISTRO, no pin file) is said in one
line, as a warning, never an error.
"""

import os
import re
from typing import Dict
from typing import List
from typing import Optional
from typing import Tuple

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import doctor_warn

DISTROS = ('kilted', 'jazzy')
_VERSION = re.compile(r'<version>\s*([^<\s]+)\s*</version>')
_PIN = re.compile(r'^\s*ros-([a-z0-9][a-z0-9-]*)\s*==\s*([^\s;#]+)', re.I)


def requirements_dirs() -> List[str]:
    """Return where pin files may be: the source tree above this install, its share copy."""
    found = []
    try:
        from ament_index_python.packages import get_package_prefix
        from ament_index_python.packages import get_package_share_directory
        prefix = get_package_prefix('ros2cli_py')
        share = get_package_share_directory('ros2cli_py')
    except Exception:       # noqa: B902 - not installed through ament: nothing to search
        return found
    path = prefix
    for _ in range(4):
        path = os.path.dirname(path)
        found.append(os.path.join(path, 'requirements'))
    found.append(os.path.join(share, 'requirements'))
    return found


def pin_file(distro: str) -> Optional[str]:
    """Return the path of ``requirements/<distro>.txt``, None when none is found."""
    for folder in requirements_dirs():
        path = os.path.join(folder, f'{distro}.txt')
        if os.path.isfile(path):
            return path
    return None


def read_pins(path: str, distro: str) -> Dict[str, str]:
    """Return {ROS package name: pinned version} of one pin file (``ros-[<distro>-]<name>``)."""
    plain, prefixed = {}, {}
    with open(path) as f:
        for line in f:
            match = _PIN.match(line)
            if not match:
                continue
            name, version = match.group(1).lower(), match.group(2)
            if name.startswith(distro + '-'):
                prefixed[name[len(distro) + 1:].replace('-', '_')] = version
            else:
                plain[name.replace('-', '_')] = version
    plain.update(prefixed)
    return plain


def get_local_package_versions() -> Dict[str, str]:
    """Return {package: version} of every package in the ament index ('' if unreadable)."""
    from ament_index_python import get_packages_with_prefixes
    local = {}
    for name, prefix in sorted(get_packages_with_prefixes().items()):
        try:
            with open(os.path.join(prefix, 'share', name, 'package.xml')) as f:
                match = _VERSION.search(f.read())
        except OSError:
            match = None
        local[name] = match.group(1) if match else ''
    return local


def wheel_version(name: str, distro: str) -> Optional[str]:
    """Return the version of the PyPI wheel providing ROS package ``name``, None if none."""
    import importlib.metadata
    dashed = name.replace('_', '-')
    for wheel in (f'ros-{distro}-{dashed}', f'ros-{dashed}'):
        try:
            return importlib.metadata.version(wheel)
        except importlib.metadata.PackageNotFoundError:
            continue
    return None


def _pins() -> Tuple[Dict[str, Dict[str, str]], List[str]]:
    """Return ({distro: pins}, [what could not be read])."""
    pins, missing = {}, []
    for distro in DISTROS:
        path = pin_file(distro)
        if path is None:
            missing.append(f'requirements/{distro}.txt not found')
            continue
        try:
            pins[distro] = read_pins(path, distro)
        except OSError as e:
            missing.append(f'{path}: {e.strerror or e}')
    return pins, missing


class PackageCheck(DoctorCheck):
    """Check the installed ROS 2 package versions against the pins of ROS_DISTRO."""

    def category(self) -> str:
        """Return 'package'."""
        return 'package'

    def check(self) -> Result:
        """Warn per package whose installed version differs from its pin."""
        result = Result()
        distro = os.environ.get('ROS_DISTRO', '').strip().lower()
        pins, _ = _pins()
        if distro not in pins:
            why = ('ROS_DISTRO is not set' if not distro
                   else f'no pins for {distro} (requirements/{distro}.txt not found)')
            doctor_warn(f'Package versions could not be checked: {why}.')
            result.add_warning()
            return result
        unreadable = []
        for name, local in get_local_package_versions().items():
            pinned = pins[distro].get(name)
            if pinned is None:
                continue        # the workspace's own packages and unpinned ones
            # a wheel's own version where there is one (its package.xml may say another)
            local = wheel_version(name, distro) or local
            if not local:
                unreadable.append(name)
            elif local != pinned:
                doctor_warn(f'{name} {local} is installed where requirements/{distro}.txt pins '
                            f'{pinned}: run `make build` (scripts/bootstrap.sh reinstalls the '
                            'pins) or update the pin.')
                result.add_warning()
        if unreadable:
            doctor_warn('Cannot find local versions of packages: ' + ' '.join(unreadable))
            result.add_warning()
        return result


class PackageReport(DoctorReport):
    """Report each installed package's version beside both distributions' pins."""

    def category(self) -> str:
        """Return 'package'."""
        return 'package'

    def report(self) -> Report:
        """Return the PACKAGE VERSIONS report; N/A where a distribution pins no version."""
        report = Report('PACKAGE VERSIONS')
        pins, missing = _pins()
        for why in missing:
            report.add_to_report('not checked', why)
        distro = os.environ.get('ROS_DISTRO', '').strip().lower()
        for name, local in get_local_package_versions().items():
            local = wheel_version(name, distro) or local
            pinned = ', '.join(f'{distro}={pins[distro].get(name, "N/A")}'
                               for distro in DISTROS if distro in pins)
            report.add_to_report(name, f'{pinned}, local={local or "N/A"}' if pinned
                                 else f'local={local or "N/A"}')
        return report
