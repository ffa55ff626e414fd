# SPDX-License-Identifier: Apache-2.0
from setuptools import setup

package_name = 'workspace_tests'

setup(
    name=package_name,
    version='0.1.0',
    packages=[],
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='Workspace-level tests of the vendor interface packages.',
    license='Apache-2.0',
    tests_require=['pytest'],
)
