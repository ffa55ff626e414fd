# SPDX-License-Identifier: Apache-2.0
"""
`mypy --strict` over a package, run the way every package's test_mypy.py runs it.

rclpy's own hints differ between the distros (Kilted: Parameter generic, rclpy.ok exported;
Jazzy: neither, QoSProfile untyped), so rclpy is Any here, the same on both; the
rosidl-generated message packages ship no stubs and are Any too (--ignore-missing-imports).
mypy runs in ``cwd`` (a temporary folder), outside the source tree, whose folders it could
take for packages.
"""

from pathlib import Path
import subprocess
import sys
from typing import List, Sequence

CONFIG = '[mypy]\n\n[mypy-rclpy.*]\nfollow_imports = skip\nfollow_imports_for_stubs = True\n'


def mypy_strict(cwd: Path, *targets: str, skip: Sequence[str] = (),
                cache_dir: 'Path | None' = None,
                timeout: float = 600.0) -> 'subprocess.CompletedProcess[str]':
    """
    Run mypy --strict over ``targets`` in ``cwd``; return the finished process.

    ``skip``: module patterns (e.g. 'ros2doctor.*') left unchecked, as Any.
    """
    config = CONFIG + ''.join(f'\n[mypy-{pattern}]\nfollow_imports = skip\n' for pattern in skip)
    (cwd / 'mypy.ini').write_text(config)
    return subprocess.run(
        [sys.executable, '-m', 'mypy', '--config-file', 'mypy.ini', '--strict',
         '--ignore-missing-imports', '--cache-dir', str(cache_dir or cwd / 'mypy_cache'),
         *targets], capture_output=True, text=True, timeout=timeout, cwd=cwd)


def user_code_lines(cwd: Path, source: str, cache_dir: 'Path | None' = None) -> List[str]:
    """
    Type-check ``source`` as a user's file in ``cwd``; return mypy's lines about it.

    Each line without its ``user.py:<line>:`` prefix, e.g. ``note: Revealed type is "str"``:
    what a user checking code against the installed packages sees.
    """
    (cwd / 'user.py').write_text(source)
    result = mypy_strict(cwd, 'user.py', cache_dir=cache_dir)
    return [line.split(': ', 1)[1] for line in result.stdout.splitlines()
            if line.startswith('user.py:')]
