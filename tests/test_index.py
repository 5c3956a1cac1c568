"""MEMORY.md: index lines, order, header lines, `memcli index [--check]`."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.store.context_block import build_context
from memcli.store.index import (
    DEFAULT_HEADER,
    IndexEntry,
    ordered,
    parse_line,
    render_index,
    render_line,
    shown_text,
    split_index,
)
from memcli.store.names import NOTE_TYPES, note_filename, slugify

# --------------------------------------------------------------------------- lines


def test_render_line_matches_the_spec_example() -> None:
    entry = IndexEntry("project", "project_knowledge", "Build workflow",
                       "Run Go tests before release.", "project_knowledge_build.md")
    line = render_line(entry)
    assert line == ("- [project_knowledge] Build workflow — Run Go tests before release. "
                    "(project_knowledge_build.md)")
    assert parse_line(line, "project") == entry


def test_a_value_can_never_break_the_line() -> None:
    entry = IndexEntry("user", "user_preference", "Two\nlines — and a dash",
                       "Summary\r\nwith\u2028separators\x85 and (parens.md)",
                       "user_preference_two-lines.md")
    line = render_line(entry)
    assert "\n" not in line and "\r" not in line and len(line.splitlines()) == 1
    parsed = parse_line(line, "user")
    assert parsed is not None
    assert parsed.title == "Two lines - and a dash"
    assert parsed.summary == "Summary with separators and (parens.md)"
    assert parsed.filename == "user_preference_two-lines.md"


def test_untitled_note_shows_its_file_name() -> None:
    line = render_line(IndexEntry("project", "project_knowledge", "", "", "project_knowledge_x.md"))
    assert line == "- [project_knowledge] project_knowledge_x.md (project_knowledge_x.md)"


@pytest.mark.parametrize("line", [
    "# Memory index", "", "- a plain bullet", "- [project_knowledge] no file name",
    "- [project_knowledge] path (a/b.md)", "  - [project_knowledge] indented (x.md)",
])
def test_lines_that_are_not_entries(line: str) -> None:
    assert parse_line(line) is None


_TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=80)


@settings(deadline=None, max_examples=examples(300))
@given(note_type=st.sampled_from(NOTE_TYPES), title=_TEXT, summary=_TEXT, slug_source=_TEXT)
def test_index_line_round_trip(note_type: str, title: str, summary: str,
                               slug_source: str) -> None:
    filename = note_filename(note_type, slugify(slug_source))
    entry = IndexEntry("project", note_type, title, summary, filename)
    line = render_line(entry)
    assert len(line.splitlines()) == 1
    parsed = parse_line(line, "project")
    assert parsed is not None
    expected_title = shown_text(title).replace("—", "-") or filename
    assert (parsed.type, parsed.title, parsed.summary, parsed.filename) == (
        note_type, expected_title, shown_text(summary), filename)


def test_file_names_with_parentheses_round_trip() -> None:
    """A hand-named note such as `project_knowledge_a(b).md` must still give a parsable line."""
    for filename in ("project_knowledge_a(b).md", "project_knowledge_v2 (draft).md"):
        entry = IndexEntry("project", "project_knowledge", "T", "S (see x.md)", filename)
        assert parse_line(render_line(entry), "project") == entry
        text = render_index(None, [entry])
        assert split_index(text).entry_lines == [render_line(entry)]
        assert render_index(text, [entry]) == text  # stable: no duplicated lines


# --------------------------------------------------------------------------- order


def _e(note_type: str, updated: str, filename: str) -> IndexEntry:
    return IndexEntry("project", note_type, filename, "", filename, updated)


def test_order_by_type_then_newest_then_file_name() -> None:
    entries = [
        _e("reference_material", "2026-12-01T00:00:00Z", "reference_material_new.md"),
        _e("project_knowledge", "2026-01-01T00:00:00Z", "project_knowledge_old.md"),
        _e("correction_feedback", "2025-01-01T00:00:00Z", "correction_feedback_old.md"),
        _e("user_preference", "2026-06-01T00:00:00Z", "user_preference_b.md"),
        _e("project_knowledge", "2026-11-01T00:00:00Z", "project_knowledge_new.md"),
        _e("user_preference", "2026-06-01T00:00:00Z", "user_preference_a.md"),
        _e("correction_feedback", "2026-11-29T00:00:00Z", "correction_feedback_new.md"),
        _e("reference_material", "2020-01-01T00:00:00Z", "reference_material_old.md"),
    ]
    names = [e.filename for e in ordered(entries)]
    assert names == [
        "correction_feedback_new.md", "correction_feedback_old.md",
        "user_preference_a.md", "user_preference_b.md",
        "project_knowledge_new.md", "project_knowledge_old.md",
        "reference_material_new.md", "reference_material_old.md",
    ]


def test_a_note_without_a_date_is_not_taken_for_the_newest() -> None:
    entries = [
        _e("reference_material", "", "reference_material_undated.md"),
        _e("reference_material", "2020-01-01T00:00:00Z", "reference_material_old.md"),
        _e("correction_feedback", "", "correction_feedback_undated.md"),
        _e("correction_feedback", "2026-11-29T00:00:00Z", "correction_feedback_new.md"),
    ]
    assert [e.filename for e in ordered(entries)] == [
        "correction_feedback_new.md", "correction_feedback_undated.md",
        "reference_material_old.md", "reference_material_undated.md",
    ]


# --------------------------------------------------------------------------- the file


def test_new_index_gets_the_default_header() -> None:
    entry = _e("project_knowledge", "", "project_knowledge_a.md")
    assert render_index(None, [entry]) == DEFAULT_HEADER + render_line(entry) + "\n"


def test_header_and_footer_lines_are_kept_verbatim() -> None:
    header = "#  My   team's memory  \n\n<!-- do not edit by hand -->\r\nfree text\n\n"
    old = _e("project_knowledge", "", "project_knowledge_old.md")
    existing = header + render_line(old) + "\n\n## Notes kept by hand\nsee wiki\n"
    new = _e("correction_feedback", "", "correction_feedback_new.md")
    text = render_index(existing, [old, new])
    assert text.startswith(header)
    assert text == (header + render_line(new) + "\n" + render_line(old) + "\n"
                    + "\n## Notes kept by hand\nsee wiki\n")


def test_index_without_entries_keeps_all_its_text_as_header() -> None:
    existing = "# Only a heading\nno newline at the end"
    entry = _e("project_knowledge", "", "project_knowledge_a.md")
    assert render_index(existing, [entry]) == existing + "\n" + render_line(entry) + "\n"


# --------------------------------------------------------------------------- the command


def _notes(memenv, count: int = 3) -> None:
    ops = [{"action": "create", "level": "project", "type": "project_knowledge",
            "title": f"Fact {i}", "content": f"Fact number {i}."} for i in range(count)]
    ops.append({"action": "create", "level": "user", "type": "user_preference",
                "title": "Terse answers", "content": "Keep answers short."})
    assert memenv.apply(ops).exit_code == 0


def test_index_check_passes_after_apply(memenv) -> None:
    _notes(memenv)
    result = memenv.invoke("index", "--check")
    assert result.exit_code == 0, result.stderr
    assert "up to date" in result.stderr


def test_index_check_fails_when_out_of_date_and_changes_nothing(memenv) -> None:
    _notes(memenv)
    memenv.write_note("project", "reference_material_added-by-hand.md", {
        "type": "reference_material", "title": "Added by hand", "summary": "Not indexed yet.",
        "updated": "2026-11-30T00:00:00Z"})
    before = memenv.snapshot()
    result = memenv.invoke("index", "--check")
    assert result.exit_code == 1
    assert "out of date" in result.stderr and "MEMORY.md" in result.stderr
    assert memenv.snapshot() == before
    proc = memenv.call("index", "--check")
    assert proc.returncode == 1
    assert memenv.snapshot() == before

    result = memenv.invoke("index", "--check", "--level", "user")
    assert result.exit_code == 0  # the user store is fine

    result = memenv.invoke("index")
    assert result.exit_code == 0
    assert "Added by hand — Not indexed yet. (reference_material_added-by-hand.md)" in (
        memenv.index("project"))
    assert memenv.invoke("index", "--check").exit_code == 0


def test_index_rebuild_keeps_a_hand_written_header(memenv) -> None:
    _notes(memenv, 2)
    index = memenv.project / "MEMORY.md"
    text = index.read_text()
    header = "# Team memory\n\n> Read this first.  \n\n"
    index.write_text(header + "\n".join(reversed(text.splitlines()[4:])) + "\n")
    assert memenv.invoke("index", "--check").exit_code == 1  # wrong order
    assert memenv.invoke("index").exit_code == 0
    rebuilt = index.read_text()
    assert rebuilt.startswith(header)
    assert rebuilt[len(header):] == text[len(DEFAULT_HEADER):]


def test_index_json_and_missing_entry_lines(memenv) -> None:
    _notes(memenv, 2)
    index = memenv.project / "MEMORY.md"
    index.write_text(DEFAULT_HEADER)  # every line lost
    result = memenv.invoke("index", "--check", "--json")
    assert result.exit_code == 1
    report = {r["level"]: r for r in json.loads(result.stdout)}
    assert report["project"]["up_to_date"] is False and report["user"]["up_to_date"] is True
    assert report["project"]["rewritten"] is False
    result = memenv.invoke("index", "--json")
    assert json.loads(result.stdout)[0]["rewritten"] is True
    assert index.read_text().count("\n- [project_knowledge]") == 2


def test_index_on_missing_stores_creates_nothing(memenv) -> None:
    before = memenv.snapshot()
    result = memenv.invoke("index")
    assert result.exit_code == 0
    assert "no store" in result.stderr
    assert memenv.invoke("index", "--check").exit_code == 0
    assert memenv.snapshot() == before


def test_index_bad_level_is_a_usage_error(memenv) -> None:
    assert memenv.invoke("index", "--level", "team").exit_code == 2


def test_broken_note_keeps_its_index_line(memenv) -> None:
    _notes(memenv, 2)
    path = memenv.project / "project_knowledge_fact-0.md"
    line = next(ln for ln in memenv.index("project").splitlines() if "fact-0" in ln)
    path.write_bytes(b"---\ntitle: [broken\n---\nbody\n")
    result = memenv.invoke("index")
    assert result.exit_code == 0
    assert "project_knowledge_fact-0.md" in result.stderr and "YAML" in result.stderr
    assert line in memenv.index("project").splitlines()
    assert path.read_bytes() == b"---\ntitle: [broken\n---\nbody\n"
    check = memenv.invoke("index", "--check")
    assert check.exit_code == 1  # a broken note is a finding for CI


# --------------------------------------------------------------------------- context block


def _entries(level: str, count: int, note_type: str = "project_knowledge",
             summary: str = "s") -> list[IndexEntry]:
    return [IndexEntry(level, note_type, f"T{i}", summary, f"{note_type}_t{i}.md",
                       f"2026-01-01T00:00:{i % 60:02d}Z") for i in range(count)]


def test_context_block_puts_project_first_and_fits_everything_when_small() -> None:
    block = build_context(_entries("project", 2), _entries("user", 1, "user_preference"),
                          project_where=".memcli/memory", user_where="~/.memcli/memory")
    lines = block.text.splitlines()
    assert lines[0] == "## Project Memory" and lines[1] == "(notes in .memcli/memory)"
    assert lines.index("## User Memory") > lines.index("## Project Memory")
    assert block.left_out == 0 and block.shown == 3
    assert "not shown" not in block.text


def test_context_block_empty_stores() -> None:
    block = build_context([], [])
    assert block.text == "## Project Memory\n(none)\n\n## User Memory\n(none)\n"


@pytest.mark.parametrize("max_lines,max_bytes", [(200, 25 * 1024), (20, 25 * 1024), (200, 2000),
                                                 (7, 10**6), (3, 10**6), (200, 300)])
def test_context_block_budget(max_lines: int, max_bytes: int) -> None:
    project = _entries("project", 150, summary="长" * 100)
    user = _entries("user", 150, "user_preference", summary="x" * 50)
    block = build_context(project, user, max_lines=max_lines, max_bytes=max_bytes)
    data = block.text.encode()
    assert len(data) <= max_bytes
    assert block.text.count("\n") <= max_lines
    data.decode("utf-8")
    assert block.text == "" or block.text.endswith("\n")
    assert block.shown + block.left_out == 300
    if block.left_out and "## User Memory" in block.text:  # not the last-resort cut
        assert block.text.splitlines()[-1].startswith(f"({block.left_out} more")


@settings(max_examples=examples(300), deadline=None)
@given(data=st.binary(max_size=40) | st.text(max_size=20).map(str.encode),
       chunk=st.integers(1, 8))
def test_the_chunked_utf8_check_agrees_with_decoding_whole(data: bytes, chunk: int) -> None:
    # `show` and `context` check MEMORY.md a MiB at a time; a character cut at a chunk's
    # edge is not an error, a bad byte anywhere is.
    from memcli.store.index import _is_utf8

    try:
        data.decode("utf-8")
        whole = True
    except UnicodeDecodeError:
        whole = False
    assert _is_utf8(data, chunk) == whole
