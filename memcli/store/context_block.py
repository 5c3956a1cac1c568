"""The context block: the index lines of both stores within the line, byte and token budget.

What `memcli context` prints (and the agent hooks hand to an agent), what `memcli status`
and lint's M108 measure against the budget. The index lines themselves are
:mod:`memcli.store.index`.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

from memcli.store.index import (
    MAX_CONTEXT_BYTES,
    MAX_CONTEXT_LINES,
    IndexEntry,
    render_line,
    sort_key,
)
from memcli.tokens import count_tokens

_INFINITE = 1 << 62


@dataclass(frozen=True)
class ContextBlock:
    """The block as text, how many entries it shows and leaves out, and which."""

    text: str
    shown: int
    left_out: int
    expired: int = 0  # expired notes left out before the budget was applied
    cut: tuple[IndexEntry, ...] = ()  # the entries the budget left out
    problems: tuple[str, ...] = ()  # notes that could not be read, and why (for stderr)


def build_context(
    project: Sequence[IndexEntry],
    user: Sequence[IndexEntry],
    *,
    project_where: str = "",
    user_where: str = "",
    max_lines: int = MAX_CONTEXT_LINES,
    max_bytes: int = MAX_CONTEXT_BYTES,
    max_tokens: int | None = None,
    expired: int = 0,
    teams: Sequence[tuple[str, str, Sequence[IndexEntry]]] = (),
) -> ContextBlock:
    """The system-prompt block: project first, then user, within the line and byte budget
    (and the token budget, when given; tokens as :func:`memcli.tokens.count_tokens` counts).

    ``expired`` counts the notes the caller left out because they expired; the block says so.
    ``teams`` are the team stores (name, where, entries), each a section after the user's,
    within the same budget; on equal rank the earlier section's entry is kept.

    When the budget is short, the entries kept are the highest-ranked across both levels
    (corrections, then the newest), so the stalest reference material is what goes.
    """
    keyed = [("## Project Memory", project_where, _keyed(project)),
             ("## User Memory", user_where, _keyed(user)),
             *((f"## Team Memory: {name}", where, _keyed(entries))
               for name, where, entries in teams)]
    sections = [(heading, where, order) for heading, where, (order, _) in keyed]
    total = sum(len(order) for _, _, order in sections)
    # Every level in one rank order, ties to the earlier section: what a stable sort of
    # every entry by sort_key gives, merged from the sorted levels (each key computed once,
    # and only the entries taken are merged).
    ranked = heapq.merge(*(_ranks(s, keys) for s, (_, _, (_, keys)) in enumerate(keyed)))
    # The frame (headings, placeholders, the left-out line) is priced at its largest; entries
    # are then taken in rank order while they fit, so one oversized entry is skipped rather
    # than hiding everything ranked below it.
    frame = _render_context(sections, {}, total, expired)
    tokens_left = _INFINITE if max_tokens is None else max_tokens - count_tokens(frame)
    if not _fits(frame, max_lines, max_bytes) or tokens_left < 0:
        return ContextBlock(_cut_to_budget(frame, max_lines, max_bytes), 0, total, expired,
                            tuple(e for _, _, es in sections for e in es))
    lines_left = max_lines - frame.count("\n")
    bytes_left = max_bytes - len(frame.encode())
    keep: dict[tuple[int, int], str] = {}  # (section, entry): its line, rendered once
    for _, s, i in ranked:
        if lines_left == 0:
            break
        line = render_line(sections[s][2][i])
        cost = len(line.encode()) + 1
        tokens = count_tokens(line + "\n") if max_tokens is not None else 0
        if cost <= bytes_left and tokens <= tokens_left:
            keep[s, i] = line
            lines_left -= 1
            bytes_left -= cost
            tokens_left -= tokens
    return ContextBlock(_render_context(sections, keep, total - len(keep), expired), len(keep),
                        total - len(keep), expired, _left_out(sections, keep.keys()))


def _left_out(sections: list[tuple[str, str, list[IndexEntry]]],
              keep: Collection[tuple[int, int]]) -> tuple[IndexEntry, ...]:
    """The entries not in KEEP, in section order (each section asked of its own kept few)."""
    cut: list[IndexEntry] = []
    for s, (_, _, entries) in enumerate(sections):
        kept = {i for section, i in keep if section == s}
        if kept:
            cut.extend(e for i, e in enumerate(entries) if i not in kept)
        else:
            cut.extend(entries)
    return tuple(cut)


_SortKey: TypeAlias = tuple[int, bool, str, str]


def _keyed(entries: Sequence[IndexEntry]) -> tuple[list[IndexEntry], list[_SortKey]]:
    """:func:`ordered` ENTRIES, and the sort key of each, in that order."""
    keys = [sort_key(e) for e in entries]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    return [entries[i] for i in order], [keys[i] for i in order]


def _ranks(section: int, keys: list[_SortKey]) -> Iterator[tuple[_SortKey, int, int]]:
    return ((key, section, i) for i, key in enumerate(keys))


def _render_context(
    sections: list[tuple[str, str, list[IndexEntry]]],
    keep: Mapping[tuple[int, int], str],
    left_out: int,
    expired: int = 0,
) -> str:
    """The block around the KEEP lines (already rendered, by (section, entry))."""
    lines: list[str] = []
    for s, (heading, where, _entries) in enumerate(sections):
        lines.append(heading)
        if where:
            lines.append(f"(notes in {where})")
        # The frame is priced with none kept; the kept few were rendered when priced.
        shown = [keep[s, i] for i in sorted(i for section, i in keep if section == s)]
        lines.extend(shown or ["(none)"])
        lines.append("")
    if left_out:
        lines.append(f"({left_out} more memory entries not shown; run `memcli show` to list all)")
    if expired:
        lines.append(f"({expired} expired memory entries left out; run `memcli status`)")
    return "\n".join(lines).rstrip("\n") + "\n"


def _fits(text: str, max_lines: int, max_bytes: int) -> bool:
    return text.count("\n") <= max_lines and len(text.encode()) <= max_bytes


def _cut_to_budget(text: str, max_lines: int, max_bytes: int) -> str:
    """Last resort for headers longer than the budget: whole lines only."""
    out: list[str] = []
    size = 0
    for line in text.splitlines(keepends=True)[:max_lines]:
        size += len(line.encode())
        if size > max_bytes:
            break
        out.append(line)
    return "".join(out)
