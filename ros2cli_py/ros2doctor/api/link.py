# SPDX-License-Identifier: Apache-2.0
"""
Helpers of the vendor extensions that diagnose a robot link (our addition to ros2doctor).

A vendor check collects findings, ``(level, text)`` pairs with level ``'error'`` or
``'warning'`` and one line of text that names the cause and the fix, and hands them to
``emit``. The other helpers are what several vendors need: the running nodes of a name, their
parameters (through the parameter services, bounded in time), a node of its own to listen
with, a rate from stamps, and a TCP probe. Nothing here imports a vendor package.

A vendor's plugin is a DoctorLink (its category, texts and diagnosis, the run of which the
check and the report share) and the two entry points, a LinkCheck and a LinkReport of it.
"""

import contextlib
import os
import socket
import threading
import time
from typing import (Any, Callable, Dict, Generic, Iterable, Iterator, List, Optional, Sequence,
                    Tuple, TypeVar, Union)

from ros2doctor.api import DoctorCheck
from ros2doctor.api import DoctorReport
from ros2doctor.api import Report
from ros2doctor.api import Result
from ros2doctor.api.format import _emit

Finding = Tuple[str, str]
Section = Tuple[str, Dict[str, str]]
DiagnosisT = TypeVar('DiagnosisT')

_names = threading.Lock()
_serial = [0]


class SharedDiagnosis(Generic[DiagnosisT]):
    """
    One diagnosis that a vendor's check and its report share within one `ros2 doctor` run.

    The check asks for a fresh one (``get(fresh=True)``); the report, which runs beside the
    checks in a thread of its own, takes the last one if it is at most ``max_age_s`` old,
    else runs it. A lock makes the two wait for one run instead of running it twice.
    """

    def __init__(self, diagnose: Callable[[], DiagnosisT], max_age_s: float = 10.0) -> None:
        self._diagnose = diagnose
        self._max_age_s = max_age_s
        self._lock = threading.Lock()
        self._last: Optional[Tuple[DiagnosisT, float]] = None

    def get(self, fresh: bool = False) -> DiagnosisT:
        """Return the shared diagnosis, run now when ``fresh`` or when none is recent."""
        with self._lock:
            last = self._last
            if fresh or last is None or time.monotonic() - last[1] > self._max_age_s:
                last = (self._diagnose(), time.monotonic())
                self._last = last
            return last[0]


def emit(prefix: str, findings: Iterable[Finding], result: Optional[Result] = None) -> Result:
    """
    Print each finding as one line (``<prefix>: <text>``) and count it in ``result``.

    As doctor_error / doctor_warn print them, naming the file and line that called emit.
    """
    result = result if result is not None else Result()
    for level, text in findings:
        if level == 'error':
            _emit(f'ERROR: {prefix}: {text}', 2)
            result.add_error()
        else:
            _emit(f'{prefix}: {text}', 2)
            result.add_warning()
    return result


class LinkDiagnosis:
    """
    The outcome of one diagnosis run: the check's findings and the report's sections.

    ``running``: something was there to diagnose; if not, the report says "not running".
    A section is a title (a node, a channel) and its report items, ``{name: value}``.
    """

    def __init__(self) -> None:
        self.findings: List[Finding] = []
        self.sections: List[Section] = []
        self.running = False


class DoctorLink:
    """
    A vendor's link as its check (a LinkCheck) and its report (a LinkReport) see it.

    ``category`` links the two; ``diagnose`` returns a LinkDiagnosis, run afresh by the check
    and shared with the report (``shared``, a SharedDiagnosis); ``prefix`` starts each line of
    the check; ``title`` names the report, ``label`` is the item before each section's title
    and ``idle`` the report's status when nothing runs (a callable: computed then).
    """

    def __init__(self, category: str, diagnose: Callable[[], LinkDiagnosis], *, prefix: str,
                 title: str, idle: Union[str, Callable[[], str]], label: str = 'link') -> None:
        self.category = category
        self.shared = SharedDiagnosis(diagnose)
        self.prefix = prefix
        self.title = title
        self.idle = idle
        self.label = label

    def idle_status(self) -> str:
        """Return the report's status when nothing runs."""
        return self.idle if isinstance(self.idle, str) else self.idle()


def add_sections(report: Report, label: str, sections: Iterable[Section]) -> Report:
    """Add each section to ``report``: a ``label`` item with its title, then its items."""
    for title, items in sections:
        report.add_to_report(label, title)
        for name, value in items.items():
            report.add_to_report(name, value)
    return report


class _OfLink:
    """A check or report of a DoctorLink, named by a class keyword: ``(..., link=LINK)``."""

    link: DoctorLink

    def __init_subclass__(cls, link: Optional[DoctorLink] = None, **kwargs: Any) -> None:
        """Make ``link`` the DoctorLink of the subclass."""
        super().__init_subclass__(**kwargs)
        if link is not None:
            cls.link = link

    def category(self) -> str:
        """Return the link's category."""
        return self.link.category


class LinkCheck(_OfLink, DoctorCheck):
    """
    A vendor's check: ``class XCheck(LinkCheck, link=X_LINK)``, X_LINK a DoctorLink.

    One line per finding of a fresh diagnosis run (see emit).
    """

    def check(self) -> Result:
        """Run the diagnosis afresh; return an error or a warning per finding (none: none)."""
        return emit(self.link.prefix, self.link.shared.get(fresh=True).findings)


class LinkReport(_OfLink, DoctorReport):
    """
    A vendor's report: ``class XReport(LinkReport, link=X_LINK)``, X_LINK a DoctorLink.

    The report titled ``link.title``: ``status: <link.idle_status()>`` when nothing runs, then
    each section of the check's run (of a run of its own if that one is not recent).
    """

    def report(self) -> Report:
        """Return the link's report: its status when nothing runs, then the sections."""
        report = Report(self.link.title)
        run = self.link.shared.get()
        if not run.running:
            report.add_to_report('status', self.link.idle_status())
        return add_sections(report, self.link.label, run.sections)


def private_node_name(stem: str) -> str:
    """Return a hidden node name unique in this process (``_<stem>_<pid>_<n>``)."""
    with _names:
        _serial[0] += 1
        return f'_{stem}_{os.getpid()}_{_serial[0]}'


def nodes_named(node: Any, name: str) -> List[str]:
    """Return the fully qualified names of the graph's nodes called ``name``, sorted."""
    found = []
    for node_name, namespace in node.get_node_names_and_namespaces():
        if node_name == name:
            found.append(namespace.rstrip('/') + '/' + node_name)
    return sorted(set(found))


def node_parameters(node: Any, node_fqn: str, names: Sequence[str],
                    timeout_s: float = 1.0) -> Optional[Dict[str, object]]:
    """
    Return the values of parameters ``names`` of node ``node_fqn`` (None: it does not answer).

    Asked through ``<node>/get_parameters`` from a node of its own on ``node``'s context, so
    that concurrent checks never share an executor. A parameter that is not set is None.
    """
    from rcl_interfaces.msg import ParameterType
    from rcl_interfaces.srv import GetParameters
    from rclpy.parameter import parameter_value_to_python

    with private_node(node, 'doctor_params') as (asker, executor):
        client = asker.create_client(GetParameters, node_fqn + '/get_parameters')
        deadline = time.monotonic() + timeout_s
        while not client.service_is_ready():
            if time.monotonic() >= deadline:
                return None
            executor.spin_once(timeout_sec=0.02)
        future = client.call_async(GetParameters.Request(names=list(names)))
        while not future.done():
            if time.monotonic() >= deadline:
                return None
            executor.spin_once(timeout_sec=0.02)
        values = future.result().values
        out: Dict[str, object] = {}
        for name, value in zip(names, values):
            out[name] = None if value.type == ParameterType.PARAMETER_NOT_SET \
                else parameter_value_to_python(value)
        return out


@contextlib.contextmanager
def private_node(node: Any, stem: str) -> Iterator[Tuple[Any, Any]]:
    """
    Yield ``(own, executor)``: a hidden node on ``node``'s context and an executor of its own.

    So that concurrent checks never share an executor. The node has no parameter services
    (private_node_name(stem) names it); both are torn down on leaving.
    """
    import rclpy
    from rclpy.executors import SingleThreadedExecutor

    own = rclpy.create_node(private_node_name(stem), context=node.context,
                            start_parameter_services=False)
    executor = SingleThreadedExecutor(context=node.context)
    executor.add_node(own)
    try:
        yield own, executor
    finally:
        executor.shutdown()
        own.destroy_node()


def spin_for(executor: Any, seconds: float, step_s: float = 0.02) -> None:
    """Spin ``executor`` (its callbacks one at a time) for ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        executor.spin_once(timeout_sec=step_s)


def message_class(type_name: str) -> Any:
    """Return the Python class of ``pkg/msg/Name`` (ImportError / AttributeError if none)."""
    import importlib
    package, _, name = type_name.partition('/msg/')
    return getattr(importlib.import_module(package + '.msg'), name)


def rate_from_stamps(stamps_ns: Sequence[int]) -> Optional[float]:
    """Return a publisher's rate (Hz) from the median step of its stamps (None: < 3 stamps)."""
    import statistics
    ordered = sorted(set(stamps_ns))
    steps = [b - a for a, b in zip(ordered, ordered[1:]) if b > a]
    if len(steps) < 2:
        return None
    return 1e9 / statistics.median(steps)


def rate_finding(what: str, rate: Optional[float], nominal: float, tolerance: float,
                 window_s: float, fix: str) -> Optional[Finding]:
    """
    Return the error of a rate off ``nominal`` by more than ``tolerance`` (a fraction), or None.

    ``rate`` None means no samples in ``window_s``. The text is the "500 Hz topic at 300 Hz"
    line: the rate measured, the rate expected, then ``fix``.
    """
    if rate is None:
        return ('error', f'{what}: no samples in {window_s:g} s: {fix}')
    if abs(rate - nominal) > tolerance * nominal:
        return ('error', f'{what} runs at {rate:.1f} Hz, not {nominal:g} Hz '
                         f'+- {tolerance:.0%}: {fix}')
    return None


def tcp_probe(host: str, port: int, timeout_s: float = 0.5) -> Optional[str]:
    """Return None when ``host:port`` accepts a TCP connection, else the reason in a few words."""
    try:
        with socket.create_connection((host, int(port)), timeout=timeout_s):
            return None
    except socket.timeout:
        return f'no answer within {timeout_s:g} s'
    except ConnectionRefusedError:
        return 'connection refused (nothing listens there)'
    except OSError as exc:
        return exc.strerror or type(exc).__name__
