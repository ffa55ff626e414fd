# SPDX-License-Identifier: Apache-2.0
"""node_runtime.heap: megabyte blocks go back to the system once freed."""

import subprocess
import sys
import textwrap


def test_return_large_blocks_gives_megabytes_back():
    # In a child: the setting is process-wide. Without it, the second megabyte block (after
    # one was freed) comes from the heap and stays resident once freed.
    script = textwrap.dedent("""\
        import ctypes, sys
        from node_runtime import heap
        if sys.argv[1] == 'fixed':
            assert heap.return_large_blocks()
        libc = ctypes.CDLL(None)
        libc.malloc.restype = ctypes.c_void_p
        libc.malloc.argtypes = (ctypes.c_size_t,)
        libc.free.argtypes = (ctypes.c_void_p,)
        def rss():
            with open('/proc/self/statm') as f:
                return int(f.read().split()[1]) * 4096
        libc.free(libc.malloc(1 << 20))     # raises the dynamic threshold
        blocks = [libc.malloc(1 << 20) for _ in range(20)]
        for b in blocks:
            ctypes.memset(b, 1, 1 << 20)
        before = rss()
        for b in blocks:
            libc.free(b)
        print(before - rss())
        """)
    freed = {mode: int(subprocess.run([sys.executable, '-c', script, mode], check=True,
                                      capture_output=True, text=True).stdout)
             for mode in ('fixed', 'dynamic')}
    assert freed['fixed'] >= 19 << 20
    assert freed['dynamic'] < freed['fixed']
