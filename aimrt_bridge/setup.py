# SPDX-License-Identifier: Apache-2.0
"""Setup of the aimrt_bridge package."""
from glob import glob

from setuptools import setup

package_name = 'aimrt_bridge'

setup(
    name=package_name,
    version='0.1.0',
    packages=[package_name],
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config', glob('config/*.yaml')),
        ('share/' + package_name + '/launch', glob('launch/*.launch.py')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description="ROS 2 bridge speaking AimRT's http channel backend",
    license='Apache-2.0',
    tests_require=['pytest'],
    # A plain launcher script instead of console_scripts: the generated console_scripts
    # wrapper scans the installed metadata before any of our code could install the
    # SIGINT/SIGTERM handlers; scripts/aimrt_bridge_node installs them first (node_runtime.stop).
    scripts=glob('scripts/*'),
    # `ros2 doctor` (ros2doctor's entry points): the AimRT link's check and report
    entry_points={
        'ros2doctor.checks': ['AimrtCheck = aimrt_bridge.doctor:AimrtCheck'],
        'ros2doctor.report': ['AimrtReport = aimrt_bridge.doctor:AimrtReport'],
    },
)
