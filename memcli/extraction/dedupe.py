"""A turn's creates against the notes they nearly repeat (:mod:`.similarity` tells whether
one does): each becomes an update of the note, is refused with the note named, or is kept,
as ``--on-conflict`` says; a create that repeats an earlier one of the same turn replaces it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memcli.extraction.similarity import Near, NoteIndex, find_near, same_words
from memcli.text import title_tokens

if TYPE_CHECKING:  # the protocol only; importing the rules package costs start-up time
    from memcli.extraction.rules.model import KnownNote


@dataclass(frozen=True)
class Merged:
    """What became of one create that nearly repeated a note: updated, or refused."""

    level: str
    title: str
    near: Near
    outcome: str  # "updated" | "refused" | "kept" (rename) | "merged" (within the turn)
    source: int  # index of the create among the operations given


@dataclass
class Dedupe:
    operations: list[dict[str, object]]
    refused: list[tuple[int, str]]  # (index among the operations, why)
    merged: list[Merged]
    sources: list[int]  # for each operation kept, its index among the operations given


@dataclass(frozen=True)
class _Pending:
    level: str
    type: str
    title: str
    summary: str
    filename: str


def _summary(op: dict[str, object]) -> str:
    summary = op.get("summary")
    if isinstance(summary, str) and summary:
        return summary
    content = str(op.get("content", ""))
    return re.split(r"(?<=[.!?。！？])\s", content, maxsplit=1)[0]


def merge_near_duplicates(operations: Sequence[dict[str, object]],
                          known: Sequence[KnownNote] | NoteIndex, on_conflict: str) -> Dedupe:
    """Creates that nearly repeat a stored note become updates of it (``update``), are
    refused with the note named (``fail``) or kept (``rename``); a create that repeats an
    earlier create of the same turn replaces it in its place, as the later word wins."""
    result = Dedupe([], [], [], [])
    pending: list[_Pending] = []
    stored = known if isinstance(known, NoteIndex) else NoteIndex(known)
    for index, op in enumerate(operations):
        if op.get("action") != "create":
            result.operations.append(dict(op))
            result.sources.append(index)
            continue
        level, title, summary = str(op["level"]), str(op["title"]), _summary(op)
        earlier = find_near(level, title, summary, pending)
        if earlier is not None:
            place = int(earlier.filename)
            result.operations[place] = dict(op)
            result.sources[place] = index
            pending[[p.filename for p in pending].index(earlier.filename)] = _Pending(
                level, str(op["type"]), title, summary, earlier.filename)
            result.merged.append(Merged(level, title, earlier, "merged", index))
            continue
        near = find_near(level, title, summary, stored.answering(level, title, summary))
        near, twins = _one_of_twins(near, str(op["type"]), level,
                                    stored.answering(level, near.title, "") if near else [])
        if twins and on_conflict != "rename":
            result.refused.append((index,
                f"'{title}' nearly repeats {len(twins)} notes of the {level} store with one "
                f"title ({', '.join(twins)}); update the one you mean by its file name, or "
                "--on-conflict rename keeps them all"))
            continue
        if near is None or on_conflict == "rename":
            if near is not None:
                result.merged.append(Merged(level, title, near, "kept", index))
            pending.append(_Pending(level, str(op["type"]), title, summary,
                                    str(len(result.operations))))
            result.operations.append(dict(op))
            result.sources.append(index)
        elif on_conflict == "update":
            result.operations.append(_as_update(op, near))
            result.sources.append(index)
            result.merged.append(Merged(level, title, near, "updated", index))
        else:
            result.refused.append((index,
                f"'{title}' nearly repeats {level}/{near.filename} ('{near.title}': {near.why}); "
                "--on-conflict update updates that note, rename keeps both"))
            result.merged.append(Merged(level, title, near, "refused", index))
    return result


def _one_of_twins(near: Near | None, note_type: str, level: str, known: Sequence[KnownNote]
                  ) -> tuple[Near | None, list[str]]:
    """The note a create repeats when other notes of the level have its title's words too
    (written by hand, imported, merged by git): the one of the create's type, else none of
    them (and their names), since updating the first would overwrite a note the statement
    may not be about."""
    if near is None:
        return None, []
    words = title_tokens(near.title)
    twins = [n for n in known if n.level == level and same_words(words, title_tokens(n.title))]
    if len(twins) < 2:
        return near, []
    typed = [n for n in twins if n.type == note_type]
    if len(typed) == 1:
        return Near(typed[0].filename, typed[0].title, near.why), []
    return None, sorted(n.filename for n in twins)


def _as_update(op: dict[str, object], near: Near) -> dict[str, object]:
    update: dict[str, object] = {"action": "update", "level": op["level"],
                                 "filename": near.filename, "title": near.title}
    for key in ("summary", "content", "reason"):
        if key in op:
            update[key] = op[key]
    reason = str(update.get("reason", ""))
    update["reason"] = (reason + "; " if reason else "") + f"updates '{near.title}' ({near.why})"
    return update
