"""The layering rules of docs/architecture.md, checked on the source itself.

Imports are read from the syntax tree, lazy ones inside functions included, since a lazy
import is still a dependency: a cycle through one breaks as soon as someone moves it.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "memcli"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, path.name == "__init__.py", node)
            submodules = [f"{base}.{alias.name}" for alias in node.names
                          if f"{base}.{alias.name}" in known]
            # `from pkg import sub` depends on sub; `from pkg import name` on pkg's __init__,
            # and so does a submodule that imports a name from its own package.
            names_from_base = len(submodules) < len(node.names)
            targets = [*submodules, *([base] if names_from_base else [])]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {name: _imports(name, path, known) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    result: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        result.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return result


def test_no_import_cycles() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_a_submodule_importing_a_name_from_its_package_is_an_edge(tmp_path: Path) -> None:
    # The providers used to do this: `from memcli.providers import ProviderSettings` in
    # providers/openai.py, while providers/__init__.py imported openai lazily.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("def run():\n    from pkg import wire\n")
    (package / "wire.py").write_text("from pkg import Settings\nfrom pkg import other\n")
    (package / "other.py").write_text("")
    known = {"pkg", "pkg.wire", "pkg.other"}
    assert _imports("pkg.wire", package / "wire.py", known) == {"pkg", "pkg.other"}
    assert _imports("pkg", package / "__init__.py", known) == {"pkg.wire"}


def test_nothing_below_the_cli_imports_the_cli() -> None:
    offenders = {name for name, deps in _graph().items()
                 if not (name == "memcli.cli" or name.startswith("memcli.cli."))
                 and name not in ("memcli.__main__",)
                 and any(d == "memcli.cli" or d.startswith("memcli.cli.") for d in deps)}
    assert offenders == set()
