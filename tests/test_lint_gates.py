"""lint's per-note checks run behind cheap gates; the findings must be exactly the ungated ones.

`check_note`, `text_problems` and `freshness` skip a sub-check when a quick test says it can
find nothing (a canonical file name, the required keys present, dates in order, an ASCII
body, no date keys). The reference below is the order the checks ran in before the gates:
every sub-check called for every note. Both must give the same findings, in the same order
(ties in the report's sort keep it), on generated notes and on a store with every per-note
finding.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.commands.lint import _duplicates, _freshness, _index, _notes
from memcli.commands.lint._report import Finding, finding
from memcli.commands.lint._scan import FileScan, StoreScan, scan_store
from memcli.store import context_block
from memcli.store.context_block import build_context
from memcli.store.index import (
    MAX_CONTEXT_BYTES,
    MAX_CONTEXT_LINES,
    IndexEntry,
    iter_lines,
    ordered,
    own_lines,
    render_line,
    split_index,
)
from memcli.store.names import NOTE_TYPES

NOW = datetime(2026, 11, 29, 10, 0, tzinfo=UTC)
SECRET = "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8"  # built here: no secret-shaped literal


def _reference_note(scan: StoreScan, file: FileScan) -> Iterator[Finding]:
    """check_note as it was before the gates: every sub-check, every note."""
    path = file.shown
    yield from _notes._note_name(scan, file, path)
    if not file.utf8:
        return
    if file.no_frontmatter:
        yield finding("M202", path, 1,
                      "the note has no frontmatter; start it with a '---' block holding type, "
                      "title, summary, created and updated")
        return
    if file.note is None:
        how = "" if ";" in file.problem else "; fix the frontmatter"
        yield finding("M203", path, file.problem_line, file.problem + how)
        return
    note = file.note
    yield from _notes._second_block(path, file, note)
    yield from _notes._required_keys(path, file, note)
    yield from _notes._dates(path, file, note)
    if not note.body or note.body.isspace():
        yield finding("M209", path, _notes._body_line(file, note),
                      "the note's body is empty; write what the agent should remember, or "
                      "delete the note")
    yield from _notes._invisible(path, file, note)
    yield from _notes._hidden(path, file, note)


def _reference(scan: StoreScan, file: FileScan) -> list[Finding]:
    found = list(_notes._text_problems(file, file.shown))
    found += _reference_note(scan, file)
    if file.note is not None:
        found += _freshness._dates(file.note, file.shown, NOW)
    return found


def _gated(scan: StoreScan, file: FileScan) -> list[Finding]:
    return [*_notes.text_problems(scan, file), *_notes.check_note(scan, file),
            *_freshness.freshness(scan, file, NOW)]


def _compare(store: Path) -> list[Finding]:
    seen: list[Finding] = []

    def visit(scan: StoreScan, file: FileScan) -> None:
        gated = _gated(scan, file)
        assert gated == _reference(scan, file), file.name
        seen.extend(gated)

    scan_store("project", store, visit)
    return seen


# Names: canonical ones, and every way a name can differ from what its note says.
_SLUGS = st.one_of(
    st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}", fullmatch=True),
    st.text(st.sampled_from("abcXY-_ .é\u0301中0"), min_size=1, max_size=10),
    st.just("a" * 65), st.just("-".join(["ab"] * 22)),
)
_NAMES = st.builds(lambda t, s: f"{t}_{s}.md",
                   st.sampled_from([*NOTE_TYPES, "project_knowledge"]), _SLUGS
                   ).filter(lambda n: "/" not in n and len(n.encode()) < 200)
_LINES = st.sampled_from([
    *(f"type: {t}" for t in NOTE_TYPES), "type: feedback", "type: banana", "type: [a]",
    "type: ''", "title: Same", "title: ", "title: '  '", "title: 12", "summary: s",
    "summary:", "summary: ' \t'", f"summary: token {SECRET}",
    "created: 2026-01-01", "created: 2026-11-29T10:00:00Z", "created: 2027-01-01T00:00:00+02:00",
    "created: x", "created: ''", "created: 2026-02-30", "updated: 2026-11-29T10:00:00Z",
    "updated: 2026-01-01T00:00:00", "updated: 1", "updated: ' '", "updated: x",
    "updated: 2026-02-30", "expires: 2026-01-01",
    "expires: 2099-01-01", "expires: soon", "review_after: 2026-06-01", "review_after: 2099-12-31",
    "review_after: [1]", "expires: ''", "a: &a [1, 2]", "- list", "k: 'open", "",
])
_BODIES = st.sampled_from([
    "", "\n", " \t\n", "Body.\n", "---\ntitle: again\n---\n", "\n---\nsummary: x\n", "---\n",
    "\r\nx\r\n", f"password=hunter2abc1 {SECRET}\n", "\ufeffx", "zero\u200bwidth\n",
    "tag\U000e0041s and \u202ebidi\n", "Café, 東京.\n",
])


@st.composite
def _files(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from([b"\xff\xfe not text", b"no frontmatter\n", b"---\nx: 1\n"]))
    lines = draw(st.lists(_LINES, max_size=7))
    fence = draw(st.sampled_from(["---\n", "---\r\n", "\ufeff---\n"]))
    text = fence + "".join(f"{line}\n" for line in lines) + "---\n" + draw(_BODIES)
    return text.encode()


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(st.dictionaries(_NAMES, _files(), max_size=10))
def test_gated_checks_find_what_every_check_finds(tmp_path: Path, files: dict[str, bytes]) -> None:
    store = Path(tempfile.mkdtemp(dir=tmp_path))
    for name, data in files.items():
        (store / name).write_bytes(data)
    _compare(store)


def _note(meta: str, body: str = "Some text.\n") -> str:
    return f"---\n{meta}---\n{body}"


_GOOD = ("type: project_knowledge\ntitle: T\nsummary: S.\ncreated: 2026-01-01T00:00:00Z\n"
         "updated: 2026-01-02T00:00:00Z\n")
EVERY_KIND = {
    "project_knowledge_clean.md": _note(_GOOD),
    "project_knowledge_Wrong-Case.md": _note(_GOOD),  # M208
    "user_preference_typed-otherwise.md": _note(_GOOD),  # M208 (type prefix)
    "project_knowledge_nofront.md": "no frontmatter\n",  # M202
    "project_knowledge_badyaml.md": _note("title: 'open\n"),  # M203
    "project_knowledge_second.md": _note(_GOOD, "\n---\ntitle: again\n---\nx\n"),  # M204
    "project_knowledge_nokeys.md": _note("created: 2026-01-01T00:00:00Z\n"),  # M205, M206
    "project_knowledge_badtype.md": _note(_GOOD.replace("project_knowledge", "feedback")),
    "project_knowledge_empty.md": _note(_GOOD, ""),  # M209
    "project_knowledge_baddate.md": _note(_GOOD.replace("2026-01-02T00:00:00Z", "x")),  # M210
    "project_knowledge_order.md": _note(_GOOD.replace("2026-01-02", "2025-01-02")),  # M211
    "project_knowledge_expired.md": _note(_GOOD + "expires: 2026-01-01\n"),  # M212
    "project_knowledge_review.md": _note(_GOOD + "review_after: 2026-01-01\n"),  # M213
    "project_knowledge_fresh.md": _note(_GOOD + "expires: someday\n"),  # M214
    "project_knowledge_hidden.md": _note(_GOOD, "a\u200bb\n"),  # M215
    "project_knowledge_comment.md": _note(_GOOD, "a <!-- b -->\n"),  # M216
    "project_knowledge_latin1.md": _note(_GOOD, "caf\xe9\n").encode("latin-1"),  # M301
    "project_knowledge_secret.md": _note(_GOOD, f"key {SECRET}\n"),  # M302
}


def test_a_store_with_every_per_note_finding(tmp_path: Path) -> None:
    for name, text in EVERY_KIND.items():
        (tmp_path / name).write_bytes(text if isinstance(text, bytes) else text.encode())
    codes = {f.code for f in _compare(tmp_path)}
    assert codes == {"M202", "M203", "M204", "M205", "M206", "M207", "M208", "M209", "M210",
                     "M211", "M212", "M213", "M214", "M215", "M216", "M301",
                     "M302"}


# --------------------------------------------------------------------------- MEMORY.md lines


def _reference_lines(text: str, rendered: dict[str, tuple[IndexEntry, str]]
                     ) -> list[_index._IndexLine]:
    """_index_lines before its shortcut: every line parsed."""
    lines = []
    number = 1
    for piece in iter_lines(text):
        lines.append(_index._index_line(number, piece, rendered))
        number += piece.count("\n")
    return lines


_ENTRIES = st.lists(st.builds(
    lambda t, title, summary, name: IndexEntry("project", t, title, summary, name),
    st.sampled_from([*NOTE_TYPES, "Project", "a\x85b", ""]),
    st.sampled_from(["T", "a (b", "x — y", "", " ", "(c).md", "\u200b"]),
    st.sampled_from(["", "S.", "s (project_knowledge_z.md)", "\r"]),
    st.sampled_from(["project_knowledge_a.md", "user_preference_b(c).md", "x.md",
                     "project_knowledge_a b.md", "reference_material_(d.md"]),
), max_size=6, unique_by=lambda e: e.filename)
_ENDS = st.sampled_from(["\n", "\r\n", "", "\r\r\n", " \n", "\x85", "\n\n"])


@given(_ENTRIES, st.lists(st.tuples(st.integers(0, 8), _ENDS), max_size=10))
def test_own_lines_are_read_as_parsing_reads_them(entries: list[IndexEntry],
                                                   picks: list[tuple[int, str]]) -> None:
    rendered = {e.filename: (e, render_line(e)) for e in entries}
    lines = [line for _, line in rendered.values()] + ["# header", "- [x] broken ("]
    text = "".join(lines[i % len(lines)] + end for i, end in picks)
    own = own_lines(rendered.values())
    assert _index._index_lines(text, rendered, own) == _reference_lines(text, rendered)


@given(_ENTRIES, st.lists(st.tuples(st.integers(0, 8), _ENDS), max_size=10), st.booleans())
def test_known_lines_split_the_index_as_parsing_does(entries: list[IndexEntry],
                                                      picks: list[tuple[int, str]],
                                                      keep: bool) -> None:
    rendered = [render_line(e) for e in entries]
    lines = [*rendered, "# header", "- [x] broken (", "", "text"]
    text = "".join(lines[i % len(lines)] + end for i, end in picks)
    known = own_lines(zip(entries, rendered, strict=True))
    assert split_index(text, entries=keep, known=known) == split_index(text, entries=keep)


@given(st.sets(st.text(st.sampled_from("ab-é東"), min_size=1, max_size=4), min_size=1,
               max_size=9))
def test_words_left_out_in_turn_are_cut_as_joining_would(words: set[str]) -> None:
    unique = sorted(words)
    assert _duplicates._without_one(" ".join(unique), unique) == [
        " ".join(unique[:i] + unique[i + 1:]) for i in range(len(unique))]


@given(st.sampled_from([*NOTE_TYPES, "Project", ""]),
       st.text(st.sampled_from("ab()/\\.md\n"), max_size=8))
def test_own_line_is_asked_as_the_file_pattern_asks(note_type: str, name: str) -> None:
    from memcli.store.index import _PLAIN_FILE, is_own_line

    entry = IndexEntry("project", note_type, "T", "", name)
    assert is_own_line(entry) == (note_type in NOTE_TYPES
                                  and _PLAIN_FILE.fullmatch(name) is not None)


@given(st.lists(st.sampled_from(["a", "é—", "\n", "line\n", ""]), max_size=40),
       st.integers(1, 5))
def test_chunks_join_to_the_pieces(pieces: list[str], size: int) -> None:
    from memcli.store.index import _chunks

    chunks = list(_chunks(iter(pieces), size))
    assert "".join(chunks) == "".join(pieces)
    assert len(chunks) == -(-len(pieces) // size)


# --------------------------------------------------------------------------- the context budget
# M108 builds the context block only when the entries might not all fit beside its frame;
# the gate must never skip a block that would leave an entry out.


def _budget_entries(sizes: list[tuple[int, str]]) -> list[IndexEntry]:
    return ordered(IndexEntry("project", "project_knowledge", f"Title {i}", char * size,
                              f"project_knowledge_title-{i}.md", f"2026-11-{1 + i % 28:02d}")
                   for i, (size, char) in enumerate(sizes))


@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, 120), st.sampled_from(["s", "s", "é", "東"])),
                min_size=120, max_size=220))
def test_the_budget_gate_skips_only_a_block_that_shows_every_entry(
        sizes: list[tuple[int, str]]) -> None:
    wanted = _budget_entries(sizes)
    rendered = [render_line(e) for e in wanted]
    # One long line, so that the rough gate (on MEMORY.md's lines) never decides.
    lines = [_index._IndexLine(1, MAX_CONTEXT_BYTES, wanted[0].filename)]
    found = list(_index._index_budget(wanted, rendered, lines, "MEMORY.md"))
    block = build_context(wanted[:MAX_CONTEXT_LINES], [])
    assert (found == []) == (block.shown == len(wanted))
    if found:
        assert found[0].code == "M108"
        assert found[0].message.startswith(f"{len(wanted) - block.shown} of {len(wanted)} ")


def test_the_context_frame_is_within_the_gates_bound() -> None:
    wanted = _budget_entries([(10, "s")] * MAX_CONTEXT_LINES)
    frame = context_block._render_context(
        [("## Project Memory", "", wanted), ("## User Memory", "", [])], set(), len(wanted))
    assert frame.count("\n") <= _index.FRAME_LINES
    assert len(frame.encode()) <= _index.FRAME_BYTES
