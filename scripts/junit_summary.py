# SPDX-License-Identifier: Apache-2.0
"""Print "<passed> <failed>" over every JUnit XML file colcon test left in a build base
(failed counts errors too), and list each failing test on stderr."""

import pathlib
import sys
import xml.etree.ElementTree as ET

passed = failed = 0
for path in sorted(pathlib.Path(sys.argv[1]).glob('*/**/*.xml')):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        continue
    if root.tag not in ('testsuites', 'testsuite'):
        continue
    for case in root.iter('testcase'):
        outcome = {child.tag for child in case}
        if outcome & {'failure', 'error'}:
            failed += 1
            print(f'FAILED {case.get("classname")}::{case.get("name")} ({path})', file=sys.stderr)
        elif 'skipped' not in outcome:
            passed += 1
print(passed, failed)
