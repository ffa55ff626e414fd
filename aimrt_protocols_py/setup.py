# SPDX-License-Identifier: Apache-2.0
"""
ament_python setup for aimrt_protocols_py.

The .proto sources under proto/ are compiled to Python (plus .pyi stubs) at
build time by grpc_tools.protoc, the protobuf compiler shipped on PyPI as
grpcio-tools. No generated code is checked in.
"""
import glob
import os

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.develop import develop

package_name = 'aimrt_protocols_py'
HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_ROOT = os.path.join(HERE, 'proto')
# Proto sources live under proto/aimrt_protocols_py/... and import each other
# by that path, so protoc emits `from aimrt_protocols_py.common import ...`
# and the generated modules land inside this Python package.
PROTO_FILES = sorted(
    os.path.relpath(p, PROTO_ROOT)
    for p in glob.glob(os.path.join(PROTO_ROOT, package_name, '**', '*.proto'),
                       recursive=True))
GENERATED_SUBPACKAGES = sorted({os.path.dirname(p) for p in PROTO_FILES})


def compile_protos(out_dir):
    """Run protoc on every .proto; return the list of files written."""
    try:
        from grpc_tools import protoc
        import grpc_tools
    except ImportError as exc:  # a clear message instead of a bare traceback
        raise RuntimeError(
            'aimrt_protocols_py needs grpcio-tools (PyPI) importable by the Python '
            'that runs the build, to compile its .proto files: pip install '
            'grpcio-tools (pinned in requirements/extra-aimrt_protocols_py.txt)'
        ) from exc
    well_known = os.path.join(os.path.dirname(grpc_tools.__file__), '_proto')
    args = ['grpc_tools.protoc', f'-I{PROTO_ROOT}', f'-I{well_known}',
            f'--python_out={out_dir}', f'--pyi_out={out_dir}'] + PROTO_FILES
    if protoc.main(args) != 0:
        raise RuntimeError('protoc failed on ' + ' '.join(PROTO_FILES))
    written = []
    for sub in GENERATED_SUBPACKAGES:
        init = os.path.join(out_dir, sub, '__init__.py')
        if not os.path.exists(init):
            with open(init, 'w') as f:
                f.write('# Generated package for protoc output (see setup.py).\n')
        written.append(init)
    for proto in PROTO_FILES:
        stem = os.path.join(out_dir, proto[:-len('.proto')])
        written += [stem + '_pb2.py', stem + '_pb2.pyi']
    return written


class BuildPyWithProtos(build_py):
    """build_py that also compiles the .proto files into build_lib."""

    def run(self):
        super().run()
        self._generated = compile_protos(self.build_lib)

    def get_outputs(self, include_bytecode=1):
        # Lets `install --record` list the generated files too.
        return super().get_outputs(include_bytecode) + list(getattr(self, '_generated', []))


class DevelopWithProtos(develop):
    """`setup.py develop` (colcon --symlink-install): generate next to the sources."""

    def run(self):
        compile_protos(HERE)
        super().run()


proto_data_files = [
    (os.path.join('share', package_name, 'proto', os.path.dirname(p)),
     [os.path.join('proto', p)])
    for p in PROTO_FILES
]

setup(
    name=package_name,
    version='0.1.0',
    packages=[package_name],
    package_data={package_name: ['py.typed']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
    ] + proto_data_files,
    install_requires=['setuptools', 'protobuf'],
    zip_safe=False,
    maintainer='Seed 466c9e91 maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-466c9e91.example',
    description='AimRT protocol messages (protobuf) for Python: codecs, JSON, ROS 2 conversions',
    license='Apache-2.0',
    tests_require=['pytest'],
    cmdclass={'build_py': BuildPyWithProtos, 'develop': DevelopWithProtos},
)
