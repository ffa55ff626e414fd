# SPDX-License-Identifier: Apache-2.0
"""Fast DDS shared memory left behind by processes that were killed hard."""

import shutil
import subprocess


def clean_shared_memory() -> bool:
    """
    Remove the Fast DDS shared-memory segments and ports no live process holds.

    A process ended by SIGKILL cannot release its `/dev/shm/fastdds_*` files; later
    participants then wait on dead ports. `fastdds shm clean` removes only what no live
    process holds, so other users of the machine are not affected. Returns False when the
    `fastdds` tool is not on PATH (nothing was cleaned).
    """
    tool = shutil.which('fastdds')
    if tool is None:
        return False
    subprocess.run([tool, 'shm', 'clean'], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=60, check=False)
    return True
