# SPDX-License-Identifier: Apache-2.0
from glob import glob

from setuptools import find_packages, setup

package_name = 'pnd_adam_examples'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/config', glob('config/*')),
        ('share/' + package_name + '/launch', glob('launch/*.launch.py')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='rclpy example node for the PND Adam U and its Fast DDS interop profile.',
    license='Apache-2.0',
    tests_require=['pytest'],
    # Plain scripts, not console_scripts entry points: see scripts/adam_arm_pose.
    scripts=['scripts/adam_arm_pose', 'scripts/adam_state_publisher'],
    # `ros2 doctor` (ros2doctor's entry points): the PND Adam robot link's check and report
    entry_points={
        'ros2doctor.checks': ['PndAdamCheck = pnd_adam_examples.doctor:PndAdamCheck'],
        'ros2doctor.report': ['PndAdamReport = pnd_adam_examples.doctor:PndAdamReport'],
    },
)
