"""The layering rules of docs/architecture.md, checked on the source itself.

Imports are read from the syntax tree, lazy ones inside functions included, since a lazy
import is still a dependency: a cycle through one breaks as soon as someone moves it.
"""

from __future__ import annotations

import ast
import functools
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


@functools.cache  # the source does not change during a run; four tests read the graph
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


# --------------------------------------------------------------------------- layers

# docs/architecture.md, Layers: from the top, each layer with its packages. A module's layer
# is its top-level package under memcli/ (the modules at the top of memcli/ are the base,
# each its own); a module imports only from its own package or from a layer below.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Entry", ("cli", "hooks", "mcp", "__main__")),
    ("Presentation", ("render",)),
    ("Commands", ("commands",)),
    ("Domain", ("extraction", "transcripts", "providers", "search")),
    ("Write path", ("writes",)),
    ("Operations", ("operations",)),
    ("Store model", ("store",)),
    ("Safety", ("safety",)),
    ("Settings", ("settings",)),
    ("Base", ("__init__", "errors", "paths", "durable", "text", "json_values", "value_types",
              "messages", "tokens", "compiled_regex")),
)
# Packages of one layer are independent of one another, except in these layers: the entry
# points start one another (`memcli mcp`, `memcli hook`, `python -m memcli.hooks` runs the
# CLI in-process), and base modules may build on one another.
SIDEWAYS = {"Entry", "Base"}


def _package(module: str) -> str:
    """memcli.commands.lint._fix -> commands; memcli.errors -> errors; memcli -> __init__."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _layer_of() -> dict[str, tuple[int, str]]:
    return {package: (rank, layer) for rank, (layer, packages) in enumerate(LAYERS)
            for package in packages}


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """`importer -> imported (why)` for every import that is not downward or within a package."""
    layer_of = _layer_of()
    found = []
    for name in sorted(graph):
        mine = _package(name)
        for dep in sorted(graph[name]):
            theirs = _package(dep)
            if mine == theirs or mine not in layer_of or theirs not in layer_of:
                continue
            (my_rank, my_layer), (their_rank, _) = layer_of[mine], layer_of[theirs]
            if their_rank < my_rank:
                found.append(f"{name} -> {dep} (upward)")
            elif their_rank == my_rank and my_layer not in SIDEWAYS:
                found.append(f"{name} -> {dep} (sideways in {my_layer})")
    return found


def test_every_module_is_in_one_layer() -> None:
    counted = [package for _, packages in LAYERS for package in packages]
    assert len(counted) == len(set(counted)), "a package in two layers"
    unplaced = sorted({f"memcli/{_package(name).replace('.', '/')}" for name in _modules()
                       if _package(name) not in set(counted)})
    assert unplaced == [], (
        "put each in a layer's package (or, for a base module, add it to LAYERS and to the "
        "table in docs/architecture.md): " + ", ".join(unplaced))


def test_imports_go_down_the_layers() -> None:
    offenders = layer_violations(_graph())
    assert offenders == [], ("a module imports only its own package or a layer below "
                             "(docs/architecture.md, Layers):\n" + "\n".join(offenders))


def test_the_layer_check_sees_upward_and_sideways_imports() -> None:
    graph = {"memcli.store.notes": {"memcli.writes.plan", "memcli.errors", "memcli.store.names"},
             "memcli.search.engine": {"memcli.extraction.budget", "memcli.writes.stores"},
             "memcli.cli.x": {"memcli.mcp.server", "memcli.render.output"}}
    assert layer_violations(graph) == [
        "memcli.search.engine -> memcli.extraction.budget (sideways in Domain)",
        "memcli.store.notes -> memcli.writes.plan (upward)"]


def test_the_layers_are_the_documented_ones() -> None:
    """docs/architecture.md's table lists each layer with exactly its packages, in order."""
    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text("utf-8")
    rows = [line for line in doc.splitlines() if line.startswith("| ")]
    documented = []
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        names = [name.strip("`").removeprefix("memcli/").rstrip("/").removesuffix(".py")
                 for name in cells[1].replace(",", " ").split() if name.startswith("`")]
        if names:
            documented.append((cells[0], tuple("__init__" if n == "memcli" else n
                                               for n in names)))
    assert tuple(documented) == LAYERS


def test_nothing_below_the_cli_imports_the_cli() -> None:
    offenders = {name for name, deps in _graph().items()
                 if not (name == "memcli.cli" or name.startswith("memcli.cli."))
                 and name not in ("memcli.__main__", "memcli.hooks.__main__")
                 and any(d == "memcli.cli" or d.startswith("memcli.cli.") for d in deps)}
    assert offenders == set()


# --------------------------------------------------------------------------- process state

# What "process state" means here, by the qualified names that read it.
PROCESS_STATE = {
    "os.environ": "the environment", "os.environb": "the environment",
    "os.getenv": "the environment", "os.getenvb": "the environment",
    "os.getcwd": "the working folder", "os.getcwdb": "the working folder",
    "pathlib.Path.cwd": "the working folder", "pathlib.Path.home": "the home folder",
    "os.path.expanduser": "the home folder",
    "sys.stdin": "stdin", "sys.stdout": "the terminal", "sys.stderr": "the terminal",
    "time.time": "the wall clock", "time.time_ns": "the wall clock",
    "time.localtime": "the wall clock", "time.ctime": "the wall clock",
    "datetime.datetime.now": "the wall clock", "datetime.datetime.utcnow": "the wall clock",
    "datetime.datetime.today": "the wall clock", "datetime.date.today": "the wall clock",
    # The person's time zone: the entry point hands it down as Settings.zone.
    "time.tzset": "the time zone", "time.timezone": "the time zone",
    "time.altzone": "the time zone", "time.tzname": "the time zone",
    "time.mktime": "the time zone", "zoneinfo.ZoneInfo": "the time zone",
}
# Methods that read process state whatever object they are called on.
PROCESS_STATE_METHODS = {"expanduser": "the home folder", "isatty": "the terminal"}

# Entry points: where process state is allowed to enter. Each is run by a person, a shell
# or another program, and passes what it read down as Settings or arguments.
ENTRY_POINTS = (
    "memcli.cli",  # the command line (resolve_settings, make_output, read_input)
    "memcli.__main__",
    # Agent hooks are entry points too: an agent runs `memcli hook ...`, and the detached
    # worker runs `python -m memcli.hooks drain`; both read their payload, log with the
    # wall clock and name job files by it, and never let an error reach the agent.
    "memcli.hooks",
)
# Anything else that must read process state, with the reason. Keep it short.
ALLOWED: dict[tuple[str, str], str] = {
}


def _is_entry_point(module: str) -> bool:
    return any(module == e or module.startswith(e + ".") for e in ENTRY_POINTS)


def _aliases(tree: ast.AST) -> dict[str, str]:
    """Local name -> qualified name, from every import in the module."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    found[alias.asname] = alias.name
                else:
                    top = alias.name.partition(".")[0]
                    found[top] = top
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for alias in node.names:
                found[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return found


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def process_state_reads(source: str) -> list[tuple[int, str, str]]:
    """(line, what was read, its kind) for every read of process state in SOURCE."""
    tree = ast.parse(source)
    aliases = _aliases(tree)
    reads: list[tuple[int, str, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in PROCESS_STATE_METHODS:
            reads.append((node.lineno, f".{node.attr}()", PROCESS_STATE_METHODS[node.attr]))
            continue
        if not isinstance(node, ast.Attribute | ast.Name):
            continue
        dotted = _dotted(node)
        if dotted is None:
            continue
        head, _, rest = dotted.partition(".")
        if head not in aliases:
            continue
        qualified = aliases[head] + (f".{rest}" if rest else "")
        if qualified in PROCESS_STATE:
            reads.append((node.lineno, qualified, PROCESS_STATE[qualified]))
    return reads


def test_process_state_enters_only_at_the_entry_points() -> None:
    offenders = []
    for name, path in sorted(_modules().items()):
        if _is_entry_point(name):
            continue
        for line, what, kind in process_state_reads(path.read_text("utf-8")):
            if (name, what) not in ALLOWED:
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {what} ({kind})")
    assert offenders == [], (
        "read it in memcli/cli/ and pass it down in Settings or as an argument "
        "(docs/architecture.md, Rules):\n" + "\n".join(offenders))


def test_the_process_state_finder_sees_every_spelling() -> None:
    source = (
        "import os, sys, time\n"
        "import datetime as dt\n"
        "from datetime import datetime, date\n"
        "from pathlib import Path\n"
        "from os import environ as env\n"
        "a = os.environ.get('X')\n"
        "b = env['X']\n"
        "c = Path.cwd() / Path.home()\n"
        "d = sys.stdin.buffer.read()\n"
        "e = dt.datetime.now(dt.UTC), datetime.now(), date.today(), time.time()\n"
        "f = Path('~').expanduser(), open(0).isatty()\n"
        "g = time.monotonic(), dt.timedelta(days=1), os.path.join('a', 'b')\n"
    )
    found = [(line, what) for line, what, _ in process_state_reads(source)]
    assert found and {line for line, _ in found} == {6, 7, 8, 9, 10, 11}
    assert {what for _, what in found} >= {
        "os.environ", "pathlib.Path.cwd", "pathlib.Path.home", "sys.stdin",
        "datetime.datetime.now", "datetime.date.today", "time.time", ".expanduser()",
        ".isatty()"}


# --------------------------------------------------------------------------- the typed seam

# What core hands to render: each result type says what happened, with typed fields.
RESULT_TYPES = {
    "commands/apply.py": ("ApplyReport",),
    "commands/lookup.py": ("Listing", "Found"),
    "commands/reindex.py": ("IndexResult",),
    "commands/extract.py": ("ExtractResult",),
    "commands/_extract_transcript.py": ("TranscriptStats",),
    "extraction/explain.py": ("Explanation", "OperationWhy", "MessageWhy"),
    "commands/lint/_report.py": ("LintReport", "Finding", "CheckedStore"),
    "commands/interop/results.py": ("ImportResult", "ExportResult", "LeftOut", "ExportedFile"),
    "commands/transcript.py": ("TranscriptReport",),
    "commands/undo.py": ("LogResult", "UndoReport"),
    "commands/status.py": ("StatusReport", "LevelStatus", "Dated"),
    "commands/consolidate_proposal.py": ("Proposal",),
    "writes/plan_result.py": ("Outcome", "FileChange"),
}


def _render_modules() -> dict[str, Path]:
    found = {name: path for name, path in _modules().items()
             if name == "memcli.render" or name.startswith("memcli.render.")}
    found["memcli.render.search"] = PACKAGE / "render" / "search.py"
    return found


def mentions_any(annotation: ast.expr | None) -> bool:
    """Whether an annotation names typing.Any, also inside a string annotation."""
    if annotation is None:
        return False
    for node in ast.walk(annotation):
        if isinstance(node, ast.Name) and node.id == "Any":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "Any":
            return True
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                inner = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                continue
            if mentions_any(inner):
                return True
    return False


def any_in_signatures(source: str) -> list[str]:
    """`line: name` of every function whose parameters or return mention Any."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        args = node.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs,
                  *([args.vararg] if args.vararg else []), *([args.kwarg] if args.kwarg else [])]
        if mentions_any(node.returns) or any(mentions_any(p.annotation) for p in params):
            found.append(f"{node.lineno}: {node.name}")
    return found


def test_render_functions_name_the_types_they_draw() -> None:
    offenders = [f"{path.relative_to(PACKAGE.parent)}:{where}"
                 for path in _render_modules().values()
                 for where in any_in_signatures(path.read_text("utf-8"))]
    assert offenders == [], "render takes and returns typed values, not Any:\n" + "\n".join(
        offenders)


def test_result_types_have_typed_fields() -> None:
    offenders = []
    for relative, names in RESULT_TYPES.items():
        tree = ast.parse((PACKAGE / relative).read_text("utf-8"))
        classes = {node.name: node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        assert set(names) <= set(classes), f"{relative}: {set(names) - set(classes)} moved?"
        for name in names:
            for item in classes[name].body:
                if isinstance(item, ast.AnnAssign) and mentions_any(item.annotation):
                    offenders.append(f"{relative}:{item.lineno}: {name}")
                if isinstance(item, ast.FunctionDef) and item.name == "as_json":
                    offenders.append(f"{relative}:{item.lineno}: {name}.as_json (JSON is "
                                     "drawn in memcli/render, encoded by memcli.json_values)")
    assert offenders == []


def test_json_is_encoded_in_one_place() -> None:
    """The CLI and render print JSON only through Output.data (memcli.json_values.dumps)."""
    offenders = []
    for name, path in sorted(_modules().items()):
        if not name.startswith(("memcli.cli", "memcli.render")):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "dumps":
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert offenders == []


def test_the_any_finder_sees_every_spelling() -> None:
    source = (
        "import typing\n"
        "from typing import Any\n"
        "def a(x: Any) -> None: ...\n"
        "def b(x: int) -> list[Any]: ...\n"
        "def c(x: 'dict[str, Any]') -> None: ...\n"
        "def d(*rest: typing.Any, **more: int) -> None: ...\n"
        "class K:\n"
        "    def e(self, *, x: int = 0) -> 'Any': ...\n"
        "def f(x: int, y: 'Many') -> dict[str, object]: ...\n"
    )
    assert any_in_signatures(source) == ["3: a", "4: b", "5: c", "6: d", "8: e"]


# The project's own planning documents live outside the repository; a message or comment
# that sends a reader there sends them to a file they do not have.
_OUTSIDE_DOCUMENTS = ("SPEC §", "SPEC order", "by SPEC", "SPEC.md", "NOTES.md")


def test_nothing_in_the_package_points_at_documents_outside_the_repository() -> None:
    offenders = [f"{path.relative_to(PACKAGE.parent)}:{number}: {line.strip()}"
                 for path in sorted(PACKAGE.rglob("*.py"))
                 for number, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                 if any(name in line for name in _OUTSIDE_DOCUMENTS)]
    assert offenders == [], "say it here, or in docs/:\n" + "\n".join(offenders)
