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
    maintainer='Workspace maintainers',
    maintainer_email='dev@workspace.local',
    description='Workspace-level tests of the vendor interface packages.',
    license='Apache-2.0',
    tests_require=['pytest'],
)
