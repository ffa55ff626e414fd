# SPDX-License-Identifier: Apache-2.0
"""
The ros2doctor API: checks, reports, their results and the runs over every extension.

A check (``DoctorCheck``) says whether something is wrong, printing a one-line warning or
error for each finding; a report (``DoctorReport``) lists what it knows. Both are found
through the ``ros2doctor.checks`` and ``ros2doctor.report`` entry points (importlib.metadata),
so any installed distribution can add its own; checks and reports are linked by their
category. An extension that fails to load, to instantiate or to run is one warning line and
is left out: it never stops the others.
"""

import importlib.metadata
import sys
import threading
from typing import List
from typing import Optional
from typing import Sequence
from typing import Set
from typing import Tuple

from ros2doctor.api.format import doctor_warn
# the ROS graph the checks look at, re-exported: graph_node, early_graph ...
from ros2doctor.api.graph import _preload, early_graph, get_topic_names  # noqa: F401
from ros2doctor.api.graph import graph_node, shared_graph  # noqa: F401

CHECKS_GROUP = 'ros2doctor.checks'
REPORTS_GROUP = 'ros2doctor.report'


class DoctorCheck:
    """Base class of a check: ``category()`` links it to reports, ``check()`` runs it."""

    def category(self) -> str:
        """Return the category linking this check to its reports."""
        raise NotImplementedError

    def check(self) -> 'Result':
        """Run the check; return its Result (errors and warnings counted)."""
        raise NotImplementedError


class DoctorReport:
    """Base class of a report: ``category()`` links it to checks, ``report()`` builds it."""

    def category(self) -> str:
        """Return the category linking this report to its checks."""
        raise NotImplementedError

    def report(self) -> 'Report':
        """Return the Report."""
        raise NotImplementedError


class Report:
    """A report's name and its items, (name, value) pairs in order."""

    __slots__ = ['name', 'items']

    def __init__(self, name: str):
        """Start an empty report called ``name``."""
        self.name = name
        self.items = []

    def add_to_report(self, item_name: str, item_info) -> None:
        """Append one (name, value) item."""
        self.items.append((item_name, item_info))


class Result:
    """The outcome of a check: how many errors and warnings it found."""

    __slots__ = ['error', 'warning']

    def __init__(self):
        """Start with no error and no warning."""
        self.error = 0
        self.warning = 0

    def add_error(self) -> None:
        """Count one error."""
        self.error += 1

    def add_warning(self) -> None:
        """Count one warning."""
        self.warning += 1


def _entry_points(group: str, excluded: Sequence[str] = ()) -> list:
    """Return the entry points of ``group`` (importlib.metadata), without ``excluded`` names."""
    found = importlib.metadata.entry_points()
    if hasattr(found, 'select'):
        selected = found.select(group=group)
    else:       # Python < 3.10
        selected = found.get(group, [])
    # one entry per name: a distribution installed twice (e.g. overlays) does not run twice
    unique = {}
    for entry_point in selected:
        if entry_point.name not in excluded:
            unique.setdefault(entry_point.name, entry_point)
    return list(unique.values())


def _instantiate(entry_point, kind: str):
    """Load and instantiate one extension; None (after one warning line) when it fails."""
    try:
        extension_class = entry_point.load()
    except Exception as e:      # noqa: B902 - a broken extension never stops the others
        doctor_warn(f'{kind} entry point {entry_point.name} fails to load: '
                    f'{type(e).__name__}: {_first_line(e)}')
        return None
    try:
        return extension_class()
    except Exception:           # noqa: B902
        doctor_warn(f'Unable to instantiate {kind.lower()} object from {entry_point.name}.')
        return None


def _first_line(error: BaseException) -> str:
    lines = str(error).strip().splitlines()
    return lines[0] if lines else repr(error)


class _PerThreadStream:
    """A stream whose writes from a capturing thread go to that thread's buffer."""

    def __init__(self, stream):
        self._stream = stream
        self._local = threading.local()

    def capture(self) -> list:
        """Buffer this thread's writes from now on; return the buffer."""
        self._local.buffer = []
        return self._local.buffer

    def write(self, text):
        buffer = getattr(self._local, 'buffer', None)
        if buffer is None:
            return self._stream.write(text)
        buffer.append(text)
        return len(text)

    def flush(self):
        if getattr(self._local, 'buffer', None) is None:
            self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _concurrently(function, items: list) -> list:
    """
    Return ``[function(item) for item in items]``, the calls run in threads of their own.

    The checks mostly wait (discovery, rates measured over a window, network probes), so
    running them side by side makes ``ros2 doctor`` as long as its longest check, not the sum.
    What each call prints is held back and printed in the order of ``items`` afterwards, as
    if they had run one after the other. ``function`` must not raise.
    """
    if len(items) < 2:
        return [function(item) for item in items]
    from concurrent.futures import ThreadPoolExecutor
    _preload()
    out, err = _PerThreadStream(sys.stdout), _PerThreadStream(sys.stderr)

    def run(item):
        printed, warned = out.capture(), err.capture()
        return function(item), printed, warned

    sys.stdout, sys.stderr = out, err
    try:
        with ThreadPoolExecutor(max_workers=len(items)) as pool:
            outcomes = list(pool.map(run, items))
    finally:
        sys.stdout, sys.stderr = out._stream, err._stream
    for _, printed, warned in outcomes:
        if printed:
            sys.stdout.write(''.join(printed))
            sys.stdout.flush()
        if warned:
            sys.stderr.write(''.join(warned))
            sys.stderr.flush()
    return [result for result, _, _ in outcomes]


def run_checks(*, include_warnings: bool = False,
               exclude_packages: bool = False) -> Tuple[Set[str], int, int]:
    """
    Run every check found through the ``ros2doctor.checks`` entry points.

    A check fails when it found an error, or a warning with ``include_warnings``.
    ``exclude_packages`` leaves out the check named ``PackageCheck``. A check that raises is
    reported in one line and not counted.

    :return: (categories of the failed checks, number of failed checks, number of checks run)
    """
    excluded = ('PackageCheck',) if exclude_packages else ()

    def run_one(entry_point):
        name = entry_point.name
        check = _instantiate(entry_point, 'Check')
        if check is None:
            return None
        try:
            return check.category(), check.check()
        except Exception as e:      # noqa: B902 - a failing check never stops the others
            doctor_warn(f'Fail to call {name} class functions: '
                        f'{type(e).__name__}: {_first_line(e)}')
            return None

    failed_categories = set()
    failed = 0
    total = 0
    for outcome in _concurrently(run_one, _entry_points(CHECKS_GROUP, excluded)):
        if outcome is None:
            continue
        category, result = outcome
        if result.error or (include_warnings and result.warning):
            failed += 1
            failed_categories.add(category)
        total += 1
    return failed_categories, failed, total


def generate_reports(*, categories: Optional[Set[str]] = None,
                     exclude_packages: bool = False) -> List[Report]:
    """
    Build the reports found through the ``ros2doctor.report`` entry points.

    With ``categories``, only the reports of those categories. ``exclude_packages`` leaves
    out the report named ``PackageReport``. A report that raises is one warning line.

    :return: the Report objects, in entry point order
    """
    excluded = ('PackageReport',) if exclude_packages else ()

    def build(entry_point):
        name = entry_point.name
        report = _instantiate(entry_point, 'Report')
        if report is None:
            return None
        try:
            if categories and report.category() not in categories:
                return None
            return report.report()
        except Exception as e:      # noqa: B902 - a failing report never stops the others
            doctor_warn(f'Fail to call {name} class functions: '
                        f'{type(e).__name__}: {_first_line(e)}')
            return None

    reports = [r for r in _concurrently(build, _entry_points(REPORTS_GROUP, excluded))
               if r is not None]
    return reports
