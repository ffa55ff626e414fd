# SPDX-License-Identifier: Apache-2.0
from glob import glob

from setuptools import find_packages, setup

package_name = 'ros2bag_mcap'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='rosbag2-format MCAP bags (record/play/info/reindex) and bag plots on rclpy.',
    license='Apache-2.0',
    tests_require=['pytest'],
    # Launcher scripts instead of console_scripts: they install the SIGINT/SIGTERM handlers
    # before any import (node_runtime.stop); the generated wrappers scan metadata first.
    scripts=glob('scripts/*'),
)
