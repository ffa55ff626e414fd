# SPDX-License-Identifier: Apache-2.0
"""
RIHS01 type hashes, pinned.

RIHS01 type hashes, pinned: an edit of any definition (a field renamed, reordered,
retyped) changes its hash, and this test names the type that changed. The same pins hold for
Kilted and Jazzy.
"""

import json
import pathlib

from ament_index_python.packages import get_package_share_directory
from interface_spec import MESSAGES, SERVICES
from interface_values import import_type
import pytest

PINNED = json.loads((pathlib.Path(__file__).parent / 'type_hashes.json').read_text())


def installed_hashes(name):
    package, kind, type_name = name.split('/')
    path = pathlib.Path(get_package_share_directory(package)) / kind / f'{type_name}.json'
    described = json.loads(path.read_text())
    return {h['type_name']: h['hash_string'] for h in described['type_hashes']}


@pytest.mark.parametrize('name', sorted(MESSAGES) + sorted(SERVICES))
def test_installed_type_hash_equals_pin(name):
    hashes = installed_hashes(name)
    own = {t: h for t, h in hashes.items() if t.split('/')[0] == name.split('/')[0]}
    assert own, name
    for type_name, hash_string in own.items():
        assert type_name in PINNED, f'{type_name} has no pinned hash: add it to type_hashes.json'
        assert hash_string == PINNED[type_name], (
            f'{type_name} changed: its RIHS01 hash is {hash_string}, pinned {PINNED[type_name]}. '
            'If the definition change is intended, it breaks wire compatibility: update the pin '
            'and say so in the changelog.')


def test_every_pin_is_still_installed():
    seen = {}
    for name in sorted(MESSAGES) + sorted(SERVICES):
        seen.update(installed_hashes(name))
    assert set(PINNED) <= set(seen), set(PINNED) - set(seen)


@pytest.mark.parametrize('name', sorted(MESSAGES))
def test_live_publisher_advertises_the_pinned_hash(ros_node, name):
    # What a peer sees in discovery, not what the JSON file says.
    topic = 'type_hash_' + name.replace('/', '_')
    publisher = ros_node.create_publisher(import_type(name), topic, 1)
    try:
        infos = ros_node.get_publishers_info_by_topic(topic)
        assert len(infos) == 1
        assert infos[0].topic_type == name
        assert str(infos[0].topic_type_hash) == PINNED[name]
    finally:
        ros_node.destroy_publisher(publisher)
