# SPDX-License-Identifier: Apache-2.0
from setuptools import find_packages, setup

package_name = 'ros2cli_py'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        # `ros2` on PATH: colcon adds <prefix>/bin of every package to PATH. The wrapper
        # execs lib/ros2cli_py/ros2, whose shebang names the interpreter of the build.
        ('bin', ['bin/ros2']),
    ],
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
