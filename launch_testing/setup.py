# SPDX-License-Identifier: Apache-2.0
from glob import glob

from setuptools import find_packages, setup

package_name = 'launch_testing'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    package_data={package_name: ['py.typed']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        # run with sys.executable by the examples (upstream installs them to lib/)
        ('share/' + package_name + '/example_processes', glob('example_processes/*.py')),
        ('lib/' + package_name, glob('example_processes/*.py')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description="Tests of launched systems on the workspace's launch (PyPI toolchain).",
    license='Apache-2.0',
    tests_require=['pytest'],
    entry_points={
        'console_scripts': ['launch_test = launch_testing.launch_test:main'],
        'pytest11': ['launch_testing = launch_testing.pytest.hooks'],
    },
)
