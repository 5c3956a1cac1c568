"""`memcli memory-tool`: one call of Anthropic's memory tool (``memory_20250818``) on the stores.

The model sees a folder ``/memories`` with two subfolders, ``project`` and ``user`` (the two
stores), each holding the notes as files. ``view`` reads; ``create``, ``str_replace``,
``insert``, ``delete`` and ``rename`` become memcli operations and go through the same
validation and single transaction as ``memcli apply``, so the model can write neither a
secret nor a file outside a store, and MEMORY.md follows every change. A note memcli names
differently from the path the model asked for (``<type>_<slug>.md``) is reported under its
real name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from memcli.errors import InputError, MemcliError
from memcli.store.names import LEVELS, NO_PROJECT, NOTE_TYPES

if TYPE_CHECKING:
    from collections.abc import Mapping

    from memcli.settings.config import Settings
    from memcli.store.folder import StoreState

ROOT = "/memories"
_HEADING = re.compile(r"^#{1,6}\s+(?P<text>.+?)\s*#*\s*$", re.M)


class ToolError(MemcliError):
    """A tool call the model got wrong: its message goes back to the model."""


@dataclass(frozen=True)
class ToolResult:
    content: str
    is_error: bool = False

    @property
    def needs_attention(self) -> bool:
        return self.is_error


def run_call(settings: Settings, call: Any, trusted: bool = False) -> ToolResult:
    """Run one tool call (the tool_use input); a mistake of the model is a result, not a raise.

    The caller is a model: unless the person trusts the tool (TRUSTED), its writes are
    unattended ones (memcli.safety.unattended): delete refused, no update that removes most of a
    note.
    """
    if not isinstance(call, dict) or not isinstance(call.get("command"), str):
        raise InputError('a memory tool call is a JSON object with a "command"')
    handler = _COMMANDS.get(call["command"])
    if handler is None:
        return ToolResult(f"Error: unknown command {call['command']!r}; use one of "
                          f"{', '.join(_COMMANDS)}", True)
    try:
        return ToolResult(handler(_Run(settings, trusted), call))
    except ToolError as exc:
        return ToolResult(f"Error: {exc}", True)


# --------------------------------------------------------------------------- paths


@dataclass(frozen=True)
class _Where:
    level: str | None  # None: /memories itself
    filename: str | None  # None: the level's folder


def _where(path: Any) -> _Where:
    if not isinstance(path, str) or not path.startswith(ROOT):
        raise ToolError(f"the path must start with {ROOT}")
    parts = PurePosixPath(path).parts
    if any(part in ("..", ".") for part in parts) or "\\" in path or "\0" in path:
        raise ToolError(f"{path}: no '..', '.', backslashes or NUL in memory paths")
    rest = parts[2:] if len(parts) > 1 and parts[1] == "memories" else None
    if rest is None:
        raise ToolError(f"the path must start with {ROOT}")
    if not rest:
        return _Where(None, None)
    if rest[0] not in LEVELS:
        raise ToolError(f"{path}: {ROOT} holds only project/ and user/")
    if len(rest) == 1:
        return _Where(rest[0], None)
    if len(rest) > 2 or not rest[1].endswith(".md"):
        raise ToolError(f"{path}: notes are .md files directly in {ROOT}/{rest[0]}/")
    return _Where(rest[0], rest[1])


def _note_path(where: _Where) -> tuple[str, str]:
    if where.level is None or where.filename is None:
        raise ToolError("that is a folder; name a note file")
    return where.level, where.filename


# --------------------------------------------------------------------------- reading


def _read(settings: Settings, level: str, filename: str) -> str | None:
    from memcli.writes.stores import open_stores

    with open_stores(settings, [level]) as stores:
        state = _opened(stores, level, settings)
        if filename not in state.heads and filename not in state.broken:
            return None
        return state.bytes_of(filename).decode("utf-8", "replace")


def _opened(stores: Mapping[str, StoreState], level: str, settings: Settings) -> StoreState:
    """The level's opened store; without a project here (the home folder, or an unattended
    run outside a git work tree) the project level is a mistake the model is told of."""
    if level not in stores:
        raise ToolError(settings.closed or NO_PROJECT)
    return stores[level]


def _view(run: _Run, call: dict[str, Any]) -> str:
    settings = run.settings
    from memcli.writes.stores import open_stores

    where = _where(call.get("path"))
    if where.filename is None:
        levels = [where.level] if where.level else list(LEVELS)
        lines = [f"Here are the files in {call['path']}:"]
        with open_stores(settings, levels, bodies=False) as stores:
            for level in levels:
                if where.level is None and level not in stores:
                    continue  # no project here: /memories holds the user store only
                state = _opened(stores, level, settings)
                lines.append(f"{ROOT}/{level}/")
                lines += [f"{ROOT}/{level}/{name}" for name in sorted(state.heads)]
        return "\n".join(lines) + "\n"
    text = _read(settings, *_note_path(where))
    if text is None:
        raise ToolError(f"{call['path']} does not exist")
    numbered = text.splitlines()
    start, end = _view_range(call.get("view_range"), len(numbered))
    body = "".join(f"{n:6d}\t{numbered[n - 1]}\n" for n in range(start, end + 1))
    return f"Here's the content of {call['path']} with line numbers:\n{body}"


def _view_range(value: Any, count: int) -> tuple[int, int]:
    if value is None:
        return 1, count
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) for v in value)):
        raise ToolError("view_range is [start, end] (end -1: to the last line)")
    start, end = value
    end = count if end == -1 else end
    if not 1 <= start <= max(end, 1) or end > count:
        raise ToolError(f"view_range {value} is outside the file's {count} lines")
    return start, end


# --------------------------------------------------------------------------- writing


def _create(run: _Run, call: dict[str, Any]) -> str:
    settings = run.settings
    level, filename = _note_path(_where(call.get("path")))
    text = call.get("file_text")
    if not isinstance(text, str):
        raise ToolError("create needs file_text")
    if _read(settings, level, filename) is not None:
        raise ToolError(f"{call['path']} already exists; use str_replace or insert")
    written = _apply(run, [_create_op(level, filename, text)])
    return f"File created successfully at: {_shown(level, written[0], call['path'])}"


def _str_replace(run: _Run, call: dict[str, Any]) -> str:
    settings = run.settings
    level, filename = _note_path(_where(call.get("path")))
    old, new = call.get("old_str"), call.get("new_str", "")
    if not isinstance(old, str) or not old or not isinstance(new, str):
        raise ToolError("str_replace needs old_str (not empty) and new_str")
    text = _existing(settings, level, filename, call["path"])
    count = text.count(old)
    if count != 1:
        raise ToolError(f"old_str must appear exactly once in {call['path']}; it appears "
                        f"{count} times. Nothing was changed.")
    _apply(run, [_update_op(level, filename, text.replace(old, new, 1))])
    return f"The memory file {call['path']} has been edited."


def _insert(run: _Run, call: dict[str, Any]) -> str:
    settings = run.settings
    level, filename = _note_path(_where(call.get("path")))
    line, addition = call.get("insert_line"), call.get("insert_text")
    if not isinstance(line, int) or not isinstance(addition, str):
        raise ToolError("insert needs insert_line (a number) and insert_text")
    lines = _existing(settings, level, filename, call["path"]).splitlines(keepends=True)
    if not 0 <= line <= len(lines):
        raise ToolError(f"insert_line {line} is outside 0..{len(lines)}")
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    lines[line:line] = [addition if addition.endswith("\n") else addition + "\n"]
    _apply(run, [_update_op(level, filename, "".join(lines))])
    return f"The memory file {call['path']} has been edited."


def _delete(run: _Run, call: dict[str, Any]) -> str:
    settings = run.settings
    level, filename = _note_path(_where(call.get("path")))
    _existing(settings, level, filename, call["path"])
    _apply(run, [{"action": "delete", "level": level, "filename": filename}])
    return f"Successfully deleted {call['path']}"


def _rename(run: _Run, call: dict[str, Any]) -> str:
    settings = run.settings
    old_level, old_name = _note_path(_where(call.get("old_path")))
    new_level, new_name = _note_path(_where(call.get("new_path")))
    if new_level != old_level:
        # A project note is committed with the repository, a user note follows the person:
        # a model moving one across would publish a private note or take a project's away.
        raise ToolError(f"{call['old_path']} and {call['new_path']} are in different stores; "
                        "a rename stays in its store (project/ or user/). Nothing was changed.")
    text = _existing(settings, old_level, old_name, call["old_path"])
    if _read(settings, new_level, new_name) is not None:
        raise ToolError(f"{call['new_path']} already exists")
    meta, body = _split(old_name, text)
    # The new name gives the title; the type and summary stay.
    create = _create_op(new_level, new_name, body, title_from_name=True)
    if isinstance(meta.get("summary"), str):
        create["summary"] = meta["summary"]
    if meta.get("type") in NOTE_TYPES and not any(new_name.startswith(t + "_")
                                                   for t in NOTE_TYPES):
        create["type"] = meta["type"]
    written = _apply(run, [create, {"action": "delete", "level": old_level,
                                    "filename": old_name}], moves=True)
    return (f"Successfully renamed {call['old_path']} to "
            f"{_shown(new_level, written[0], call['new_path'])}")


def _existing(settings: Settings, level: str, filename: str, path: str) -> str:
    text = _read(settings, level, filename)
    if text is None:
        raise ToolError(f"{path} does not exist")
    return text


@dataclass(frozen=True)
class _Run:
    settings: Settings
    trusted: bool


def _apply(run: _Run, items: list[dict[str, Any]], *, moves: bool = False) -> list[str]:
    """Apply ITEMS in one transaction, all or nothing; the file name of each. MOVES: the
    delete is the old name of a note the same call creates under its new one."""
    from dataclasses import replace

    from memcli.commands.apply import apply_items
    from memcli.safety.unattended import UNATTENDED
    from memcli.writes.history import Source

    guard = None if run.trusted else replace(UNATTENDED, allow_delete=moves,
                                             review=run.settings.review,
                                             lifted_by="MEMCLI_TRUST_WRITES=memory-tool")
    source = Source("memory-tool", via="memory-tool", unattended=not run.trusted)
    report = apply_items(run.settings, items, {}, strict=True, source=source, guard=guard)
    rejected = [o for o in report.outcomes if o.status == "rejected"]
    if rejected:
        raise ToolError("; ".join(o.message for o in rejected) + ". Nothing was changed.")
    if report.proposed:
        # Not an error of the model's: the person chose to review such changes first.
        done = " (the rest was written)" if report.written else ""
        raise ToolError("held for the person's review in memcli's inbox (`memcli review`): "
                        f"not written until they accept it{done}")
    return [o.filename for o in report.outcomes if o.filename is not None]


def _shown(level: str, filename: str, asked: str) -> str:
    real = f"{ROOT}/{level}/{filename}"
    return real if real == asked else f"{real} (memcli names notes <type>_<slug>.md)"


# --------------------------------------------------------------------------- text -> note


def _split(filename: str, text: str) -> tuple[dict[str, Any], str]:
    """A file's frontmatter keys and body; text without frontmatter is all body."""
    from memcli.store.notes import parse_note_text

    if not text.startswith("---"):
        return {}, text
    try:
        note = parse_note_text(filename, text, text.encode())
    except MemcliError as exc:
        raise ToolError(f"the frontmatter does not parse: {exc}") from None
    return dict(note.meta), note.body


def _create_op(level: str, filename: str, text: str, *,
               title_from_name: bool = False) -> dict[str, Any]:
    meta, body = _split(filename, text)
    stem = filename.removesuffix(".md")
    prefix = next((t for t in NOTE_TYPES if stem.startswith(t + "_")), None)
    note_type = meta.get("type") or prefix or (
        "user_preference" if level == "user" else "project_knowledge")
    heading = None if title_from_name else _HEADING.search(body)
    named = stem.removeprefix(f"{prefix}_" if prefix else "").replace("_", " ")
    named = named.replace("-", " ").strip().capitalize() or stem
    title = meta.get("title") or (heading["text"] if heading else named)
    op: dict[str, Any] = {"action": "create", "level": level, "type": note_type,
                          "title": title, "content": body.strip("\n") + "\n",
                          "reason": "written by the memory tool"}
    if isinstance(meta.get("summary"), str):
        op["summary"] = meta["summary"]
    return op


def _update_op(level: str, filename: str, text: str) -> dict[str, Any]:
    meta, body = _split(filename, text)
    if not body.strip():
        raise ToolError("a note cannot be empty; use delete to remove it")
    op: dict[str, Any] = {"action": "update", "level": level, "filename": filename,
                          "content": body.strip("\n") + "\n"}
    for key in ("title", "summary"):
        if isinstance(meta.get(key), str):
            op[key] = meta[key]
    return op


_COMMANDS = {"view": _view, "create": _create, "str_replace": _str_replace,
             "insert": _insert, "delete": _delete, "rename": _rename}
