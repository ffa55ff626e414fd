# SPDX-License-Identifier: Apache-2.0
"""
Every code file carries an SPDX line, and every package.xml is a well-formed format 3.

Code files: Python (*.py, and extensionless scripts whose shebang names python), shell
(*.sh, *.bash, shebang scripts), CMake (CMakeLists.txt, *.cmake), Makefiles and C/C++
sources. Interface definitions (.msg, .srv, .idl, .proto) and data (YAML, XML, JSON) are
not code and are left out. The line 'SPDX-License-Identifier: <licence>' must be among a
file's first five lines (after a shebang or an encoding line). Results are grouped by
top-level directory (a package, scripts/, benchmarks/, the root), so each failure names its
owner. package.xml files are parsed with the standard library (ament_xmllint is not on
PyPI) against what REP 149 requires of format 3.
"""

import os
import pathlib
import re
import xml.etree.ElementTree as ET

import pytest

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
SKIP_DIRS = {'.git', '.venv', 'build', 'install', 'log', '__pycache__', '.pytest_cache',
             '.hypothesis', 'node_modules', '.ci-cache'}
CODE_SUFFIXES = {'.py', '.sh', '.bash', '.cmake', '.c', '.cc', '.cpp', '.cxx', '.h',
                 '.hh', '.hpp'}
CODE_NAMES = {'CMakeLists.txt', 'Makefile'}
SPDX = re.compile(r'SPDX-License-Identifier:\s*\S+')
HEAD_LINES = 5


def walk_files():
    for root, dirs, files in os.walk(WORKSPACE):
        dirs[:] = sorted(d for d in dirs
                         if d not in SKIP_DIRS and not d.endswith('.egg-info')
                         and not (pathlib.Path(root) / d / 'COLCON_IGNORE').exists())
        for name in sorted(files):
            yield pathlib.Path(root) / name


def is_code(path):
    if path.suffix in CODE_SUFFIXES or path.name in CODE_NAMES:
        return True
    if path.suffix == '' and os.access(path, os.X_OK):
        try:
            with open(path, 'rb') as f:
                first = f.readline(200)
        except OSError:
            return False
        return first.startswith(b'#!') and any(
            word in first for word in (b'python', b'bash', b'/sh'))
    return False


def group_of(path):
    parts = path.relative_to(WORKSPACE).parts
    return parts[0] if len(parts) > 1 else '(root)'


def code_files_by_group():
    groups = {}
    for path in walk_files():
        if is_code(path):
            groups.setdefault(group_of(path), []).append(path)
    return groups


# An upstream file kept unchanged as a test fixture (its folder's ATTRIBUTION.md names its
# source) keeps upstream's own license header instead of an SPDX line.
UPSTREAM_HEADER = re.compile(r'Licensed under the Apache License, Version 2\.0')


def is_attributed_upstream(path):
    return (path.parent / 'ATTRIBUTION.md').is_file()


def has_spdx(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        head = [f.readline() for _ in range(HEAD_LINES)]
    if is_attributed_upstream(path):
        return any(UPSTREAM_HEADER.search(line) or SPDX.search(line) for line in head)
    return any(SPDX.search(line) for line in head)


CODE_FILES = code_files_by_group()
PACKAGE_XMLS = sorted(p for p in walk_files() if p.name == 'package.xml')


def test_there_is_code_and_there_are_packages():
    assert sum(len(files) for files in CODE_FILES.values()) > 50
    assert len(PACKAGE_XMLS) > 5


@pytest.mark.parametrize('group', sorted(CODE_FILES))
def test_every_code_file_has_an_spdx_line(group):
    missing = [str(p.relative_to(WORKSPACE)) for p in CODE_FILES[group] if not has_spdx(p)]
    assert not missing, (f'{len(missing)} code file(s) without "SPDX-License-Identifier: ..." '
                         f'in their first {HEAD_LINES} lines:\n  ' + '\n  '.join(missing))


def package_xml_problems(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return [f'not well-formed XML: {e}']
    problems = []
    if root.tag != 'package':
        return [f'root element is <{root.tag}>, not <package>']
    if root.get('format') != '3':
        problems.append(f'format="{root.get("format")}", expected "3"')
    for tag in ('name', 'version', 'description'):
        if len(root.findall(tag)) != 1 or not (root.findtext(tag) or '').strip():
            problems.append(f'needs exactly one non-empty <{tag}>')
    name = (root.findtext('name') or '').strip()
    if name and not re.fullmatch(r'[a-z][a-z0-9_]*', name):
        problems.append(f'name {name!r} is not lower case letters, digits and underscores')
    version = (root.findtext('version') or '').strip()
    if version and not re.fullmatch(r'\d+\.\d+\.\d+', version):
        problems.append(f'version {version!r} is not MAJOR.MINOR.PATCH')
    maintainers = root.findall('maintainer')
    if not maintainers:
        problems.append('needs at least one <maintainer>')
    for m in maintainers:
        if not m.get('email') or not (m.text or '').strip():
            problems.append('a <maintainer> without name or email attribute')
    if not [lic for lic in root.findall('license') if (lic.text or '').strip()]:
        problems.append('needs at least one non-empty <license>')
    build_types = root.findall('export/build_type')
    if len(build_types) != 1 or not (build_types[0].text or '').strip():
        problems.append('needs exactly one <export><build_type>')
    return problems


@pytest.mark.parametrize('path', PACKAGE_XMLS,
                         ids=[str(p.parent.relative_to(WORKSPACE)) for p in PACKAGE_XMLS])
def test_package_xml_is_well_formed_format_3(path):
    problems = package_xml_problems(path)
    assert not problems, f'{path.relative_to(WORKSPACE)}: ' + '; '.join(problems)


def test_package_names_are_unique():
    names = {}
    for path in PACKAGE_XMLS:
        name = ET.parse(path).getroot().findtext('name')
        names.setdefault(name, []).append(str(path.relative_to(WORKSPACE)))
    assert not {n: p for n, p in names.items() if len(p) > 1}


# Placeholders that must not stand for a maintainer (reserved example domains of RFC 2606,
# local-only addresses); the project's own identity is its commit author's.
PLACEHOLDER_MAIL = re.compile(r'@(example\.(com|org|net)|[^@]*\.local)$')


@pytest.mark.parametrize('path', PACKAGE_XMLS,
                         ids=[str(p.parent.relative_to(WORKSPACE)) for p in PACKAGE_XMLS])
def test_maintainer_is_real_and_agrees_with_setup_py(path):
    root = ET.parse(path).getroot()
    maintainers = [((m.text or '').strip(), m.get('email', ''))
                   for m in root.findall('maintainer')]
    for name, mail in maintainers:
        assert not PLACEHOLDER_MAIL.search(mail), f'{path}: placeholder maintainer {mail}'
        assert name.lower() not in ('todo', 'maintainer', 'workspace maintainers'), path
    setup_py = path.parent / 'setup.py'
    if setup_py.exists():
        text = setup_py.read_text()
        name = re.search(r"maintainer='([^']*)'", text).group(1)
        mail = re.search(r"maintainer_email='([^']*)'", text).group(1)
        assert (name, mail) in maintainers, \
            f'{setup_py}: maintainer {name} <{mail}> is not the one of package.xml'
