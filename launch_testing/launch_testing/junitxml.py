# SPDX-License-Identifier: Apache-2.0
"""JUnit XML of launch test results (``launch_test --junit-xml``)."""

from typing import Dict, Tuple, TYPE_CHECKING
import unittest
from xml.etree import ElementTree

if TYPE_CHECKING:
    from .test_runner import TestRun

# the (active, post-shutdown) results of every run
Results = Dict['TestRun', Tuple[unittest.TestResult, unittest.TestResult]]


def write_junit_xml(path: str, results: Results, package_name: str = 'launch_tests') -> None:
    """Write one testsuite per run: every failure and error as a testcase element."""
    suites = ElementTree.Element('testsuites')
    for run, (active, post) in results.items():
        suite = ElementTree.SubElement(suites, 'testsuite', name=f'{package_name}.{run.name}')
        tests = failures = errors = 0
        for result in (active, post):
            tests += result.testsRun
            failures += len(result.failures)
            errors += len(result.errors)
            for case, text in result.failures + result.errors:
                kind = 'failure' if (case, text) in result.failures else 'error'
                element = ElementTree.SubElement(suite, 'testcase', name=case.id().split('.')[-1],
                                                 classname=case.id().rsplit('.', 1)[0])
                ElementTree.SubElement(element, kind, message=text.strip().splitlines()[-1]
                                       if text.strip() else kind).text = text
        suite.set('tests', str(tests))
        suite.set('failures', str(failures))
        suite.set('errors', str(errors))
    ElementTree.ElementTree(suites).write(path, encoding='utf-8', xml_declaration=True)
