# SPDX-License-Identifier: Apache-2.0
from setuptools import find_packages, setup

package_name = 'horus_msg_py'

setup(
    name=package_name,
    version='0.1.0',
    # horus_testing: the peer samples and peer process that horus_msg_py's and
    # horus_bridge's tests share (test support, kept out of the horus_msg_py library).
    packages=find_packages(exclude=['test']),
    package_data={package_name: ['py.typed']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
    ],
    install_requires=['setuptools', 'numpy'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='HORUS sensor message layouts, shared-memory topics and ROS 2 conversions',
    license='Apache-2.0',
    tests_require=['pytest'],
)
