# SPDX-License-Identifier: Apache-2.0
from glob import glob

from setuptools import find_packages, setup

package_name = 'hb50_nodes'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config', glob('config/*.yaml')),
        ('share/' + package_name + '/models', glob('models/*.xml')),
        ('share/' + package_name + '/urdf', glob('urdf/*.urdf')),
        ('share/' + package_name + '/launch', glob('launch/*.launch.*')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='Simulated Honey Badger 5.0 stack (bridge_node, control_node, heartbeat monitor).',
    license='Apache-2.0',
    tests_require=['pytest'],
    # Plain launcher scripts instead of console_scripts: the generated console_scripts wrapper
    # scans the installed metadata before any of our code can install the SIGINT /
    # SIGTERM handlers; scripts/* install them first (node_runtime.stop).
    scripts=glob('scripts/*'),
    # `ros2 doctor` (ros2doctor's entry points): the HB50 stack's check and report
    entry_points={
        'ros2doctor.checks': ['HB50Check = hb50_nodes.doctor:HB50Check'],
        'ros2doctor.report': ['HB50Report = hb50_nodes.doctor:HB50Report'],
    },
)
