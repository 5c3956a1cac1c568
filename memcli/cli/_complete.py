"""Values that TAB completes: fixed choices, and the note names in the stores.

Each function runs only at TAB time for its own parameter, so it may import what it needs;
note names come from a directory listing (no note is parsed), to stay quick on big stores.
"""

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any


def _starting(choices: Iterable[str], incomplete: str) -> list[str]:
    return [c for c in choices if c.startswith(incomplete)]


def level(incomplete: str) -> list[str]:
    from memcli.store.names import LEVELS

    return _starting(LEVELS, incomplete)


def level_or_all(incomplete: str) -> list[str]:
    from memcli.store.names import LEVELS

    return _starting((*LEVELS, "all"), incomplete)


def note_type(incomplete: str) -> list[str]:
    from memcli.store.names import NOTE_TYPES

    return _starting(NOTE_TYPES, incomplete)


def provider(incomplete: str) -> list[str]:
    from memcli.settings.provider_registry import EXTRACTORS

    return _starting(EXTRACTORS, incomplete)


def conflict_policy(incomplete: str) -> list[str]:
    from typing import get_args

    from memcli.writes.plan_result import OnConflict

    return _starting(get_args(OnConflict), incomplete)


def lint_format(incomplete: str) -> list[str]:
    from memcli.render.lint import LINT_FORMATS

    return _starting(LINT_FORMATS, incomplete)


def shell(incomplete: str) -> list[str]:
    from memcli.cli.completion_scripts import SHELLS

    return _starting(SHELLS, incomplete)


def agent(incomplete: str) -> list[str]:
    from memcli.commands.hooks_install import AGENT_HOOKS

    return _starting((*AGENT_HOOKS, "git"), incomplete)


def scope(incomplete: str) -> list[str]:
    from memcli.commands.hooks_install import SCOPES

    return _starting(SCOPES, incomplete)


def transcript_format(incomplete: str) -> list[str]:
    from memcli.transcripts import FORMATS

    return _starting(FORMATS, incomplete)


def note_name(ctx: Any, incomplete: str) -> list[str]:
    """Note names of the stores the command line points at (`show`, `rm`, `log` alike).

    `project/NAME.md` (what memcli prints) by default; bare file names once the person has
    started typing one (`user_pre<TAB>`), so that each candidate is offered once; titles
    when what is typed starts no file name (`memcli show "Test c<TAB>`; typer offers only
    the candidates that start with what is typed, so in the title's own case).
    """
    try:
        stores = _stores(ctx)
    except Exception:  # a broken setting must not turn TAB into a traceback
        return []
    wanted = ctx.params.get("level")
    pairs = [(lvl, folder, name) for lvl, folder in stores.items()
             if wanted in (None, "all", lvl) for name in _note_files(folder)]
    bare = sorted({name for _, _, name in pairs if incomplete and name.startswith(incomplete)})
    if bare:
        return bare
    named = sorted(f"{lvl}/{name}" for lvl, _, name in pairs
                   if f"{lvl}/{name}".startswith(incomplete))
    if named or not incomplete:
        return named
    return sorted({title for _, folder, name in pairs
                   if (title := _title(folder / name)).startswith(incomplete)} - {""})


def _title(path: Path) -> str:
    """A note's title as its frontmatter spells it, read from the file's head only (TAB
    reads every note; parsing them whole would be felt)."""
    from memcli.store.folder_files import title_as_written

    try:
        with path.open("rb") as handle:
            head = handle.read(8192)
    except OSError:
        return ""
    return title_as_written(head.decode("utf-8", "replace"))


def _stores(ctx: Any) -> dict[str, Path]:
    from memcli.settings.resolve import Flags, resolve

    root = ctx.find_root().params
    flags = Flags(project_store=root.get("project_store"), user_store=root.get("user_store"))
    settings = resolve(flags, os.environ, Path.cwd())
    return {lvl: settings.store_for(lvl) for lvl in ("project", "user")}


def _note_files(folder: Path) -> Iterator[str]:
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if name.endswith(".md") and name != "MEMORY.md" and not name.startswith("."):
                    yield name
    except OSError:
        return
