# SPDX-License-Identifier: Apache-2.0
import importlib.util
import os

from setuptools import find_packages, setup

package_name = 'ros2cli_py'
here = os.path.dirname(os.path.abspath(__file__))

# ros2doctor (`ros2 doctor`), with upstream's import path and entry points, only where the
# toolchain has no ros2cli: with a real ros2cli, `ros2` hands over to it and its ros2doctor,
# which a copy of ours on the path would shadow.
with_doctor = importlib.util.find_spec('ros2cli') is None
doctor_entry_points = {
    'ros2doctor.checks': [
        'PlatformCheck = ros2doctor.api.platform:PlatformCheck',
        'NetworkCheck = ros2doctor.api.network:NetworkCheck',
        'TopicCheck = ros2doctor.api.topic:TopicCheck',
        'QoSCompatibilityCheck = ros2doctor.api.qos_compatibility:QoSCompatibilityCheck',
        'PackageCheck = ros2doctor.api.package:PackageCheck',
    ],
    'ros2doctor.report': [
        'PlatformReport = ros2doctor.api.platform:PlatformReport',
        'RosdistroReport = ros2doctor.api.platform:RosdistroReport',
        'NetworkReport = ros2doctor.api.network:NetworkReport',
        'RMWReport = ros2doctor.api.rmw:RMWReport',
        'TopicReport = ros2doctor.api.topic:TopicReport',
        'QoSCompatibilityReport = ros2doctor.api.qos_compatibility:QoSCompatibilityReport',
        'PackageReport = ros2doctor.api.package:PackageReport',
    ],
    'ros2doctor.verb': [
        'hello = ros2doctor.verb.hello:HelloVerb',
    ],
}
# the workspace's pins, for the package check (it prefers the source tree's when found)
pins = [f'../requirements/{d}.txt' for d in ('kilted', 'jazzy')
        if os.path.isfile(os.path.join(here, '..', 'requirements', f'{d}.txt'))]

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test'] + ([] if with_doctor else ['ros2doctor*'])),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        # `ros2` on PATH: colcon adds <prefix>/bin of every package to PATH. The wrapper
        # execs lib/ros2cli_py/ros2, whose shebang names the interpreter of the build.
        ('bin', ['bin/ros2']),
    ] + ([('share/' + package_name + '/requirements', pins)] if with_doctor and pins else []),
    entry_points=doctor_entry_points if with_doctor else {},
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='ros2 command (run, pkg, interface, topic, node, service, param) for the '
                'PyPI toolchain, with ros2cli syntax and output.',
    license='Apache-2.0',
    tests_require=['pytest'],
    # A launcher script instead of console_scripts: the generated wrapper scans the installed
    # metadata before our code runs, a window in which SIGINT/SIGTERM kill the process or
    # raise KeyboardInterrupt with a traceback; scripts/ros2 routes them first
    # (node_runtime.stop).
    scripts=['scripts/ros2'],
)
