# SPDX-License-Identifier: Apache-2.0
"""assets on the ROS side: the bytes of an allowed package:// or file:// URI."""

import os
from typing import Callable
from urllib.parse import unquote, urlparse

from node_runtime.bounded_text import bounded

from .settings import allowed, Patterns
from .ws_listener import CallFailed


def fetch_asset(uri: str, allowlist: Patterns, warn: Callable[[str], None]) -> bytes:
    """Return the bytes of an allowed package:// or file:// URI; CallFailed otherwise."""
    if '..' in uri or not allowed(allowlist, uri):
        warn(f'asset refused: {bounded(uri, 200)}')
        raise CallFailed(f'{bounded(uri, 200)}: not allowed')
    parsed = urlparse(uri)
    path = unquote(parsed.path)
    if parsed.scheme == 'package':
        from ament_index_python.packages import (get_package_share_directory,
                                                 PackageNotFoundError)
        try:
            path = os.path.join(get_package_share_directory(parsed.netloc),
                                path.lstrip('/'))
        except PackageNotFoundError:
            raise CallFailed(f'{uri}: no package {parsed.netloc}') from None
    elif parsed.scheme != 'file':
        raise CallFailed(f'{uri}: only package:// and file:// URIs')
    try:
        with open(path, 'rb') as f:
            return f.read()
    except OSError as exc:
        raise CallFailed(f'{uri}: {exc.strerror or "cannot be read"}') from None
