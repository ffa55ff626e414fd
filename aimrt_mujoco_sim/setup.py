# SPDX-License-Identifier: Apache-2.0
from glob import glob

from setuptools import setup

package_name = 'aimrt_mujoco_sim'

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
    description="AimRT-side MuJoCo simulator peer speaking AimRT's http channel",
    license='Apache-2.0',
    tests_require=['pytest'],
    # A plain launcher script, not console_scripts: see scripts/aimrt_mujoco_sim.
    scripts=['scripts/aimrt_mujoco_sim'],
)
