# SPDX-License-Identifier: Apache-2.0
from glob import glob

from setuptools import find_packages, setup

package_name = 'foxglove_live'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/layouts', glob('layouts/*.json')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='Foxglove WebSocket live view of every ROS 2 topic (ros2msg schema, raw CDR).',
    license='Apache-2.0',
    tests_require=['pytest'],
    # Launcher script (handlers before imports: node_runtime.stop).
    scripts=glob('scripts/*'),
)
