# SPDX-License-Identifier: Apache-2.0
"""ament_python setup for robstride_sim (simulated robstride_hardware_interface)."""
from glob import glob

from setuptools import setup

package_name = 'robstride_sim'

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
    description='RobStride hardware interface node (simulated motors or a python-can bus) '
                'with the upstream services, simulated motors as a bus peer, a Python client '
                'and the robstride_cli tool',
    license='Apache-2.0',
    tests_require=['pytest'],
    # Plain scripts, not console_scripts entry points: their first statements install the
    # signal handlers (node_runtime.stop); an entry point would first look up the
    # package metadata, a window in which SIGINT/SIGTERM still get Python's defaults.
    scripts=['scripts/robstride_sim_node', 'scripts/robstride_cli',
             'scripts/robstride_fake_motors'],
    # `ros2 doctor` (ros2doctor's entry points): the RobStride link's check and report
    entry_points={
        'ros2doctor.checks': ['RobstrideCheck = robstride_sim.doctor:RobstrideCheck'],
        'ros2doctor.report': ['RobstrideReport = robstride_sim.doctor:RobstrideReport'],
    },
)
