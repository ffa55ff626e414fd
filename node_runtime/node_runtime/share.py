# SPDX-License-Identifier: Apache-2.0
"""A package's data files: the installed share/ directory, else the package's source tree."""

import os


def share_file(package: str, source_root: str, *parts: str) -> str:
    """
    Return share/<package>/<parts> of the install, else <source_root>/<parts>.

    source_root: the package's folder in the source tree (the one holding package.xml), the
    fallback when the package is not installed or its install has no such file (a module
    run from the source tree, a fresh generator output not yet installed).
    """
    try:
        from ament_index_python.packages import get_package_share_directory
        path = os.path.join(get_package_share_directory(package), *parts)
        if os.path.exists(path):
            return path
    except (ImportError, LookupError, OSError):   # not installed / not sourced
        pass
    return os.path.join(source_root, *parts)
