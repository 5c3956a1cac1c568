"""build_context ranks both levels by merging them, each key computed once: the block must be
exactly what the stable sort of every entry (the way it was first written) gives, ties and
budgets included."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.store import context_block
from memcli.store.context_block import ContextBlock, build_context
from memcli.store.index import IndexEntry, ordered, render_line, sort_key
from memcli.tokens import count_tokens


def _sorted_twice(project: Sequence[IndexEntry], user: Sequence[IndexEntry], *,
                  max_lines: int, max_bytes: int, max_tokens: int | None) -> ContextBlock:
    """build_context as first written: each level sorted, then every entry sorted again."""
    sections = [("## Project Memory", "", ordered(project)), ("## User Memory", "", ordered(user))]
    total = len(project) + len(user)
    ranked = sorted(((s, i) for s, (_, _, es) in enumerate(sections) for i in range(len(es))),
                    key=lambda si: sort_key(sections[si[0]][2][si[1]]))
    frame = context_block._render_context(sections, {}, total, 0)
    tokens_left = 1 << 62 if max_tokens is None else max_tokens - count_tokens(frame)
    if not context_block._fits(frame, max_lines, max_bytes) or tokens_left < 0:
        return ContextBlock(context_block._cut_to_budget(frame, max_lines, max_bytes), 0, total, 0,
                            tuple(e for _, _, es in sections for e in es))
    lines_left = max_lines - frame.count("\n")
    bytes_left = max_bytes - len(frame.encode())
    keep: dict[tuple[int, int], str] = {}
    for s, i in ranked:
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
    cut = tuple(e for s, (_, _, es) in enumerate(sections) for i, e in enumerate(es)
                if (s, i) not in keep)
    text = context_block._render_context(sections, keep, total - len(keep), 0)
    return ContextBlock(text, len(keep), total - len(keep), 0, cut)


# Few distinct values, so that equal keys (within a level and across both) are common.
_ENTRY = st.builds(
    IndexEntry, st.just("project"),
    st.sampled_from(["correction_feedback", "project_knowledge", "reference_material", "odd"]),
    st.sampled_from(["T", "A longer title of several words", "x"]),
    st.sampled_from(["", "S.", "A summary that costs a good part of a small budget."]),
    st.sampled_from(["project_knowledge_a.md", "project_knowledge_b.md", "x.md"]),
    st.sampled_from(["", "2026-01-01T00:00:00Z", "2026-06-01", "garbage"]),
)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(_ENTRY, max_size=12), st.lists(_ENTRY, max_size=12), st.integers(3, 30),
       st.integers(60, 900), st.one_of(st.none(), st.integers(10, 200)))
def test_merged_ranking_is_the_stable_sort(project: list[IndexEntry], user: list[IndexEntry],
                                           max_lines: int, max_bytes: int,
                                           max_tokens: int | None) -> None:
    got = build_context(project, user, max_lines=max_lines, max_bytes=max_bytes,
                        max_tokens=max_tokens)
    assert got == _sorted_twice(project, user, max_lines=max_lines, max_bytes=max_bytes,
                                max_tokens=max_tokens)
