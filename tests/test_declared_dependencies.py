"""Every third-party module memcli imports is a declared dependency of the install it runs under.

A plain ``pip install .`` has only the base dependencies: typer 0.28 bundles click as
``typer._click`` and no longer depends on ``click``, so one stray ``import click`` crashed
every piped ``memcli extract`` while the suite, whose ``test`` extra brings click in through
``mcp``, stayed green. Reading the imports from the source (eager ones and those inside
functions alike) catches that whatever the test environment happens to have installed.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import sys
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "memcli"

# Modules an extra may bring in, and the memcli modules allowed to import them: the extra's
# own entry point, which says which extra to install when it is missing. The MCP server
# imports pydantic itself (the SDK reads its annotations), so the mcp extra declares it.
EXTRA_ONLY = {"mcp": "mcp", "pydantic": "mcp"}

# Standard-library modules of a newer Python than 3.11, imported only there (the zstd
# module is `compression.zstd` from 3.14 on, `backports.zstd` before).
NEWER_STDLIB = {"compression"}


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _requirements() -> tuple[set[str], dict[str, set[str]]]:
    """The base requirements and those of each extra, as normalised distribution names."""
    base: set[str] = set()
    extras: dict[str, set[str]] = {}
    for line in importlib.metadata.requires("memcli") or []:
        name = _normal(re.split(r"[\s;<>=!~\[]", line, maxsplit=1)[0])
        extra = re.search(r"extra\s*==\s*['\"]([^'\"]+)['\"]", line)
        if extra:
            extras.setdefault(extra.group(1), set()).add(name)
        else:
            base.add(name)
    return base, extras


def _imports(path: Path) -> set[str]:
    """Top-level names of the absolute imports in one file, wherever they stand."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SOURCE.parent).with_suffix("").parts)


@functools.cache  # the source does not change during a run; three tests read it
def _third_party() -> dict[str, set[str]]:
    """Each third-party top-level name memcli imports, with the memcli modules importing it."""
    found: dict[str, set[str]] = {}
    for path in sorted(SOURCE.rglob("*.py")):
        for name in _imports(path):
            if name == "memcli" or name in sys.stdlib_module_names or name in NEWER_STDLIB:
                continue
            found.setdefault(name, set()).add(_module(path))
    return found


def test_every_imported_module_is_a_declared_dependency() -> None:
    base, extras = _requirements()
    providers = importlib.metadata.packages_distributions()
    wrong: list[str] = []
    for name, importers in sorted(_third_party().items()):
        dists = {_normal(d) for d in providers.get(name, [])}
        if dists & base:
            continue
        extra = EXTRA_ONLY.get(name)
        if extra is not None and dists & extras.get(extra, set()):
            outside = sorted(m for m in importers
                             if not any(part.startswith("mcp") for part in m.split(".")[1:]))
            if not outside:
                continue
            wrong.append(f"{name} (extra {extra!r}) imported outside its entry point: {outside}")
            continue
        wrong.append(f"{name} (from {sorted(dists) or 'no installed distribution'}) "
                     f"is not a base dependency, imported by {sorted(importers)}")
    assert not wrong, "\n".join(wrong)


def test_the_check_sees_imports_inside_functions(tmp_path: Path) -> None:
    # The click import that broke the plain install stood inside a function.
    sample = tmp_path / "lazy.py"
    sample.write_text("def f():\n    import click\n    from rich import console\n")
    assert _imports(sample) == {"click", "rich"}


def test_click_is_not_a_base_dependency() -> None:
    base, _ = _requirements()
    assert "click" not in base
    assert "click" not in _third_party(), "typer bundles click as typer._click; use that"


def test_every_base_dependency_is_imported() -> None:
    """A base dependency nothing imports is weight every install carries for nothing (issue
    33: python-frontmatter, and pydantic once operations stopped using it)."""
    base, _ = _requirements()
    providers = importlib.metadata.packages_distributions()
    imported = {_normal(dist) for name in _third_party() for dist in providers.get(name, [])}
    assert sorted(base - imported) == []
