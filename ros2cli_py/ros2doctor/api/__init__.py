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
import sys
import threading
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


def _preload() -> None:
    """
    Import rclpy's core in this thread before the checks run in threads of their own.

    Two threads importing the same package for the first time can find each other's modules
    half-initialised where the package's modules import one another (rclpy.qos and
    rclpy.node do): one of them then fails with "partially initialized module".
    """
    import rclpy  # noqa: F401
    import rclpy.executors  # noqa: F401
    import rclpy.node  # noqa: F401
    import rclpy.parameter  # noqa: F401
    import rclpy.qos  # noqa: F401


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


# -- the ROS graph the checks look at -------------------------------------------------------

class _SharedGraph:
    """One discovered node for every check and report of a command (made on first use)."""

    def __init__(self):
        self.cli = None
        self.known = None                 # what the daemon knew (see _daemon_graph), or None
        self._made = threading.Event()    # set once the node exists (or could not be made)
        self._lock = threading.Lock()     # checks run in threads of their own

    def prefetch(self) -> None:
        """Make the node now; a failure is left for the check that needs the node to report."""
        try:
            self.node()
        except Exception:       # noqa: B902 - raised again, and reported, where it is needed
            pass

    def node(self):
        with self._lock:
            if self.cli is None:
                from ros2cli_py.graph import CliNode
                # the daemon's graph first: once this command's node joins, the daemon sees
                # its graph change and would wait for it to settle before answering
                try:
                    known = _daemon_graph()
                    cli = CliNode()
                    self.cli, self.known = cli, known
                finally:
                    self._made.set()
                if known is None:
                    cli.discover()
                else:
                    _catch_up(cli, known[0], known[1])
            return self.cli.node

    def early(self, timeout: float):
        """Return (the node once it exists, the daemon's topic types or None), or None."""
        if not self._made.wait(timeout) or self.cli is None:
            return None
        return self.cli.node, (self.known[2] if self.known is not None else None)

    def close(self):
        if self.cli is not None:
            self.cli.close()
            self.cli = None


def _daemon_graph():
    """
    Return (nodes, {topic: (publishers, subscribers)}, {topic: [types]}) or None.

    What the running daemon knows; None without a daemon.

    Hidden nodes (the daemon's own, other commands', a doctor's listeners) are left out, and
    so are their endpoints: no check looks at them, their names are the last a new node
    learns, and the endpoints of one that has just exited stay in the daemon's graph until
    their lease expires, where a new node never sees them. A topic's counts are the numbers
    of the other nodes that publish / subscribe to it.
    """
    from ros2cli_py import daemon
    from ros2cli_py.graph import DaemonView
    client = daemon.connect()
    if client is None:
        return None
    try:
        with DaemonView(client) as view:
            view.discover()
            remote = view.node
            nodes = {tuple(pair) for pair in remote.get_node_names_and_namespaces()
                     if not pair[0].startswith('_')}
            publishers: dict = {}
            subscribers: dict = {}
            types = {topic: list(kinds) for topic, kinds in remote.get_topic_names_and_types()}
            for name, namespace in nodes:
                for topic, _ in remote.get_publisher_names_and_types_by_node(name, namespace):
                    publishers[topic] = publishers.get(topic, 0) + 1
                for topic, _ in remote.get_subscriber_names_and_types_by_node(name, namespace):
                    subscribers[topic] = subscribers.get(topic, 0) + 1
    except (daemon.DaemonError, daemon.DaemonCallError, ValueError):
        return None
    counts = {topic: (publishers.get(topic, 0), subscribers.get(topic, 0))
              for topic in set(publishers) | set(subscribers)}
    return nodes, counts, types


def _catch_up(cli, nodes, counts) -> None:
    """
    Spin ``cli`` until it knows what the daemon knows (at most 5 s).

    Every node but the hidden ones, every topic, and on each topic at least as many publishers
    and subscribers as the daemon counts (the checks read endpoints and their QoS). The daemon
    has kept the graph, so this replaces the settle wait of a fresh node (1 s at least, and no
    proof on a loaded host, where a fresh node's discovery may not have begun within its first
    second).
    """
    from ros2cli_py.graph import MAX_DISCOVERY_S
    node = cli.node

    def caught_up():
        if not nodes <= set(node.get_node_names_and_namespaces()):
            return False
        known = {name for name, _ in node.get_topic_names_and_types()}
        return all(name in known and node.count_publishers(name) >= pubs
                   and node.count_subscribers(name) >= subs
                   for name, (pubs, subs) in counts.items())
    cli.wait_until(caught_up, MAX_DISCOVERY_S)


_shared: Optional[_SharedGraph] = None


@contextlib.contextmanager
def shared_graph() -> Iterator[None]:
    """
    Let the checks and reports run inside share one node and one discovery wait.

    The node is made and its discovery started at once, in a thread of its own, while the
    extensions load; the first check that needs it waits for it.
    """
    global _shared
    if _shared is not None:
        yield
        return
    _shared = _SharedGraph()
    _preload()
    prefetch = threading.Thread(target=_shared.prefetch, name='doctor-graph', daemon=True)
    prefetch.start()
    try:
        yield
    finally:
        prefetch.join()
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


def early_graph(timeout: float = 10.0):
    """
    Return (the shared node, {topic: [types]} the daemon knew or None) before discovery ends.

    Inside ``shared_graph()`` only, as soon as the node exists, while it is still catching up
    with the graph: a check that listens to topics (a rate measured over a window) can
    subscribe now, so that its subscriptions are discovered alongside the node instead of
    after it. None outside ``shared_graph()`` or when the node could not be made; the caller
    then uses ``graph_node()``.
    """
    shared = _shared
    return shared.early(timeout) if shared is not None else None


def get_topic_names(skip_topics: Sequence[str] = ()) -> List[str]:
    """Return the topic names of the graph, without ``skip_topics``."""
    with graph_node() as node:
        return [name for name, _ in node.get_topic_names_and_types() if name not in skip_topics]
