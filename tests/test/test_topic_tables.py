# SPDX-License-Identifier: Apache-2.0
"""
The HB50 topic tables of the READMEs agree with hb50_nodes/topics.py, the source of truth.

The table is written out twice for readers, in the root README ("HB50 topics, QoS and rates")
and in hb50_nodes/README.md ("Topics, QoS, rates"). Each must list exactly the topics of
`topics.TOPICS`, in its order, resolved in the default namespace, with its message type, QoS
profile key and rate ("500 Hz" for a nominal rate of 500.0; a topic without one, rate None,
must not show a fixed rate). The two tables must also agree with each other row for row,
producer column included.

topics.py is read from the source tree, loaded from its file: no rclpy, no install needed,
and the installed hb50_nodes package (which other tests of this session may import) is left
alone.
"""

import importlib.util
import pathlib
import re

import pytest

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
TOPICS_PY = WORKSPACE / 'hb50_nodes' / 'hb50_nodes' / 'topics.py'
TABLES = {
    'README.md': '## HB50 topics, QoS and rates',
    'hb50_nodes/README.md': '## Topics, QoS, rates',
}
COLUMNS = ['topic', 'type', 'QoS', 'rate', 'producer']
FIXED_RATE = re.compile(r'^\d+(\.\d+)?\s*Hz$')


def load_topics():
    spec = importlib.util.spec_from_file_location('_hb50_topics_source', TOPICS_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


topics = load_topics()


def split_row(line):
    return [cell.strip() for cell in line.strip().strip('|').split('|')]


def first_table(readme, heading):
    """Return the header and rows of the first table under `heading` in `readme`."""
    lines = (WORKSPACE / readme).read_text(encoding='utf-8').splitlines()
    assert heading in lines, f'{readme}: no section {heading!r}'
    table = []
    for line in lines[lines.index(heading) + 1:]:
        if line.startswith('## '):
            break
        if line.startswith('|'):
            table.append(line)
        elif table:
            break
    assert len(table) >= 2, f'{readme}: no table under {heading!r}'
    header, rule, *rows = table
    assert re.fullmatch(r'\|(\s*:?-+:?\s*\|)+', rule.strip()), f'{readme}: bad rule {rule!r}'
    return split_row(header), [split_row(row) for row in rows]


def rate_cell(rate):
    return f'{rate:g} Hz'


@pytest.mark.parametrize('readme', sorted(TABLES))
def test_table_matches_topics_py(readme):
    header, rows = first_table(readme, TABLES[readme])
    assert header == COLUMNS, f'{readme}: columns {header}'
    for row in rows:
        assert len(row) == len(COLUMNS), f'{readme}: row {row}'
    names = [row[0] for row in rows]
    expected = [topics.resolve(name) for name in topics.TOPICS]
    assert names == expected, \
        f'{readme}: topics {names}, topics.py has {expected} (same order)'
    for name, type_name, profile, rate, producer in rows:
        spec = topics.spec(name)
        assert type_name == spec.type_name, f'{readme}: {name} type {type_name!r}'
        assert profile == spec.profile, f'{readme}: {name} QoS {profile!r}'
        if spec.rate is None:
            assert not FIXED_RATE.match(rate), \
                f'{readme}: {name} shows a fixed rate {rate!r}; topics.py has none'
            assert rate, f'{readme}: {name} has an empty rate'
        else:
            assert rate == rate_cell(spec.rate), \
                f'{readme}: {name} rate {rate!r}, topics.py {rate_cell(spec.rate)!r}'
        assert producer, f'{readme}: {name} has no producer'


def test_tables_agree_with_each_other():
    tables = [first_table(readme, heading) for readme, heading in sorted(TABLES.items())]
    assert tables[0] == tables[1]


def test_profiles_are_described():
    # Every QoS profile key the table uses is spelled out beside it (mabRT = KEEP_LAST 1 ...).
    for readme, heading in TABLES.items():
        text = (WORKSPACE / readme).read_text(encoding='utf-8')
        start = text.index(heading)
        end = text.find('\n## ', start + 1)
        section = text[start:end if end != -1 else None]
        for profile in {spec.profile for spec in topics.TOPICS.values()}:
            assert re.search(rf'\b{re.escape(profile)}\s*[:=]\s*KEEP_LAST', section), \
                f'{readme}: the QoS profile {profile!r} is not described in {heading!r}'
