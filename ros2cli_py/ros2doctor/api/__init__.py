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

import contextlib
import importlib.metadata
from typing import Iterator
from typing import List
from typing import Optional
from typing import Sequence
from typing import Set
from typing import Tuple

from ros2doctor.api.format import doctor_warn

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


def run_checks(*, include_warnings: bool = False,
               exclude_packages: bool = False) -> Tuple[Set[str], int, int]:
    """
    Run every check found through the ``ros2doctor.checks`` entry points.

    A check fails when it found an error, or a warning with ``include_warnings``.
    ``exclude_packages`` leaves out the check named ``PackageCheck``. A check that raises is
    reported in one line and not counted.

    :return: (categories of the failed checks, number of failed checks, number of checks run)
    """
    failed_categories = set()
    failed = 0
    total = 0
    excluded = ('PackageCheck',) if exclude_packages else ()
    for entry_point in _entry_points(CHECKS_GROUP, excluded):
        check = _instantiate(entry_point, 'Check')
        if check is None:
            continue
        try:
            category = check.category()
            result = check.check()
            if result.error or (include_warnings and result.warning):
                failed += 1
                failed_categories.add(category)
            total += 1
        except Exception as e:      # noqa: B902 - a failing check never stops the others
            doctor_warn(f'Fail to call {entry_point.name} class functions: '
                        f'{type(e).__name__}: {_first_line(e)}')
    return failed_categories, failed, total


def generate_reports(*, categories: Optional[Set[str]] = None,
                     exclude_packages: bool = False) -> List[Report]:
    """
    Build the reports found through the ``ros2doctor.report`` entry points.

    With ``categories``, only the reports of those categories. ``exclude_packages`` leaves
    out the report named ``PackageReport``. A report that raises is one warning line.

    :return: the Report objects, in entry point order
    """
    reports = []
    excluded = ('PackageReport',) if exclude_packages else ()
    for entry_point in _entry_points(REPORTS_GROUP, excluded):
        report = _instantiate(entry_point, 'Report')
        if report is None:
            continue
        try:
            category = report.category()
            if categories and category not in categories:
                continue
            reports.append(report.report())
        except Exception as e:      # noqa: B902 - a failing report never stops the others
            doctor_warn(f'Fail to call {entry_point.name} class functions: '
                        f'{type(e).__name__}: {_first_line(e)}')
    return reports


# -- the ROS graph the checks look at -------------------------------------------------------

class _SharedGraph:
    """One discovered node for every check and report of a command (made on first use)."""

    def __init__(self):
        self.cli = None

    def node(self):
        if self.cli is None:
            from ros2cli_py.graph import CliNode
            self.cli = CliNode()
            self.cli.discover()
            self._catch_up()
        return self.cli.node

    def _catch_up(self):
        """
        Wait until this node knows every node and topic a running daemon knows (at most 5 s).

        A fresh node's discovery may not have begun within its first second on a loaded
        host, so a settled but empty graph is no proof; the daemon has kept the graph.
        """
        from ros2cli_py import daemon
        from ros2cli_py.graph import DaemonView
        from ros2cli_py.graph import MAX_DISCOVERY_S
        client = daemon.connect()
        if client is None:
            return
        try:
            with DaemonView(client) as view:
                view.discover()
                nodes = {tuple(pair) for pair in view.node.get_node_names_and_namespaces()}
                topics = {name for name, _ in view.node.get_topic_names_and_types()}
        except (daemon.DaemonError, daemon.DaemonCallError, ValueError):
            return
        node = self.cli.node

        def caught_up():
            return (nodes <= set(node.get_node_names_and_namespaces())
                    and topics <= {name for name, _ in node.get_topic_names_and_types()})
        self.cli.wait_until(caught_up, MAX_DISCOVERY_S)

    def close(self):
        if self.cli is not None:
            self.cli.close()
            self.cli = None


_shared: Optional[_SharedGraph] = None


@contextlib.contextmanager
def shared_graph() -> Iterator[None]:
    """Let the checks and reports run inside share one node and one discovery wait."""
    global _shared
    if _shared is not None:
        yield
        return
    _shared = _SharedGraph()
    try:
        yield
    finally:
        graph, _shared = _shared, None
        graph.close()


@contextlib.contextmanager
def graph_node() -> Iterator[object]:
    """
    Yield an rclpy node that has discovered the graph (the command's hidden node).

    Inside ``shared_graph()`` every caller gets the same node; outside, a node of its own
    that is destroyed afterwards.
    """
    if _shared is not None:
        yield _shared.node()
        return
    graph = _SharedGraph()
    try:
        yield graph.node()
    finally:
        graph.close()


def get_topic_names(skip_topics: Sequence[str] = ()) -> List[str]:
    """Return the topic names of the graph, without ``skip_topics``."""
    with graph_node() as node:
        return [name for name, _ in node.get_topic_names_and_types() if name not in skip_topics]
