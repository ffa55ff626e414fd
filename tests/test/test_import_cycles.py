# SPDX-License-Identifier: Apache-2.0
"""
No import cycle among the workspace's Python modules, deferred imports included.

Every module of every package's Python packages (the folders with an ``__init__.py`` beside a
package.xml; tests, fixtures and generated code left out) is read with ``ast``. Each import
statement anywhere in it counts, also those inside functions, which hide a cycle from a plain
import but still tie the two modules together; those under ``if TYPE_CHECKING:`` do not run
and do not count. An import names the deepest module of the workspace it reaches
(``from a.b import c`` is ``a.b.c`` when that is a module, else ``a.b``). A strongly
connected group of more than one module, or a module importing itself, is a cycle.
"""

import ast
import os
import pathlib
from typing import Dict, Iterator, List, Optional, Set

WORKSPACE = pathlib.Path(__file__).resolve().parents[2]
SKIP_DIRS = {'.git', '.venv', 'build', 'install', 'log', '__pycache__', '.pytest_cache',
             '.hypothesis', 'node_modules', '.ci-cache', 'test', 'tests', 'benchmarks',
             'scripts', 'docs'}


def python_packages() -> Iterator[pathlib.Path]:
    """Yield each top-level Python package folder of a ROS package (beside package.xml)."""
    for entry in sorted(WORKSPACE.iterdir()):
        if entry.name in SKIP_DIRS or not (entry / 'package.xml').exists():
            continue
        for child in sorted(entry.iterdir()):
            if child.is_dir() and (child / '__init__.py').exists():
                yield child


def modules() -> Dict[str, pathlib.Path]:
    """Return {dotted module name: file} of every workspace module."""
    found = {}
    for package in python_packages():
        for root, dirs, files in os.walk(package):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in files:
                if name.endswith('.py'):
                    path = pathlib.Path(root) / name
                    parts = list(path.relative_to(package.parent).with_suffix('').parts)
                    if parts[-1] == '__init__':
                        parts.pop()
                    found['.'.join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == 'TYPE_CHECKING') or (
        isinstance(test, ast.Attribute) and test.attr == 'TYPE_CHECKING')


def _runtime_imports(tree: ast.AST) -> Iterator[ast.stmt]:
    """Yield the import statements of a tree that can run (not under TYPE_CHECKING)."""
    todo: List[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def _deepest(name: str, known: Dict[str, pathlib.Path]) -> Optional[str]:
    parts = name.split('.')
    while parts:
        candidate = '.'.join(parts)
        if candidate in known:
            return candidate
        parts.pop()
    return None


def import_graph(known: Dict[str, pathlib.Path]) -> Dict[str, Set[str]]:
    """Return {module: the workspace modules it imports}."""
    graph: Dict[str, Set[str]] = {}
    for module, path in known.items():
        is_package = path.name == '__init__.py'
        edges: Set[str] = set()
        for node in _runtime_imports(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                assert isinstance(node, ast.ImportFrom)
                base = node.module or ''
                if node.level:
                    anchor = module.split('.')
                    drop = node.level - 1 if is_package else node.level
                    anchor = anchor[:len(anchor) - drop] if drop else anchor
                    base = '.'.join(anchor + ([base] if base else []))
                targets = [f'{base}.{alias.name}' if f'{base}.{alias.name}' in known else base
                           for alias in node.names]
            for target in targets:
                deepest = _deepest(target, known)
                if deepest is not None:
                    edges.add(deepest)
        graph[module] = edges
    return graph


def cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Return the strongly connected groups of more than one module, and self-imports."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    out: List[List[str]] = []

    def visit(start: str) -> None:
        # iterative Tarjan: (module, iterator over its edges)
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, edges = work[-1]
            advanced = False
            for target in edges:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    advanced = True
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1 or module in graph[module]:
                    out.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return out


def test_the_reader_finds_a_deferred_cycle(tmp_path):
    # the checker itself: two modules tied only by an import inside a function
    (tmp_path / 'a.py').write_text('def f():\n    from b import g\n    return g\n')
    (tmp_path / 'b.py').write_text('import a\n\ndef g():\n    return a\n')
    (tmp_path / 'c.py').write_text('from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n'
                                   '    import a\n')
    known = {name: tmp_path / f'{name}.py' for name in ('a', 'b', 'c')}
    graph = import_graph(known)
    assert graph == {'a': {'b'}, 'b': {'a'}, 'c': set()}
    assert cycles(graph) == [['a', 'b']]


def test_the_workspace_is_read():
    known = modules()
    # a few modules every checkout has, so that an empty walk cannot pass
    for module in ('node_runtime.runner', 'ros_wire', 'hb50_nodes.bridge_node'):
        assert module in known, sorted(known)[:20]


def test_no_import_cycle():
    found = cycles(import_graph(modules()))
    assert found == [], '\n'.join(' <-> '.join(group) for group in found)
