# SPDX-License-Identifier: Apache-2.0
from glob import glob

from setuptools import find_packages, setup

package_name = 'pnd_adam_description'

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test']),
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml', 'README.md']),
        ('share/' + package_name + '/models', glob('models/*.xml')),
        ('share/' + package_name + '/urdf', glob('urdf/*.urdf')),
    ],
    install_requires=['setuptools'],
    zip_safe=True,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='PND Adam U joint order, limits, hand range and vendor PD gains.',
    license='Apache-2.0',
    tests_require=['pytest'],
)
