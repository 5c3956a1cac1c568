"""Notes on disk: frontmatter parsing, byte-preserving updates, hand-broken files."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.errors import BrokenNoteError, StoreError
from memcli.store.frontmatter_yaml import dump_yaml
from memcli.store.note_bytes import render_new_note, render_updated_note
from memcli.store.notes import parse_note

HAND_WRITTEN = (
    "---\n"
    "# written by hand; keep this comment\n"
    "type: project_knowledge\n"
    "title:   Build workflow   \n"
    "owner: platform-team   # an unknown key with a trailing comment\n"
    "summary: Run Go tests before release.\n"
    "tags:\n"
    "  - go\n"
    "  - release\n"
    "\n"
    "created: 2026-11-29T10:00:00Z\n"
    "updated: 2026-11-29T10:00:00Z\n"
    "---\n"
    "Run `go test ./...` before tagging a release.   \n"
    "\n"
    "Trailing blank lines and spaces are part of the body.\n"
    "\n\n"
)


def test_parse_keeps_timestamps_and_unknown_keys_as_written() -> None:
    note = parse_note("project_knowledge_build.md", HAND_WRITTEN.encode())
    assert note.type == "project_knowledge"
    assert note.title == "Build workflow"
    assert note.created == "2026-11-29T10:00:00Z"  # a string, not a datetime
    assert note.meta["owner"] == "platform-team"
    assert note.meta["tags"] == ["go", "release"]
    assert note.content.startswith("Run `go test")
    assert note.content.endswith("part of the body.")
    assert note.raw == HAND_WRITTEN.encode()


def test_update_of_one_key_changes_only_that_line() -> None:
    note = parse_note("project_knowledge_build.md", HAND_WRITTEN.encode())
    out = render_updated_note(note, {"summary": "Run go test first."}, None).decode()
    expected = HAND_WRITTEN.replace(
        "summary: Run Go tests before release.\n", "summary: Run go test first.\n"
    )
    assert out == expected


def test_update_with_the_same_content_keeps_the_body_bytes() -> None:
    note = parse_note("project_knowledge_build.md", HAND_WRITTEN.encode())
    out = render_updated_note(note, {}, note.content + "\n\n").decode()
    assert out == HAND_WRITTEN


def test_update_of_the_body_keeps_the_frontmatter_bytes() -> None:
    note = parse_note("project_knowledge_build.md", HAND_WRITTEN.encode())
    out = render_updated_note(note, {}, "New body.").decode()
    head = HAND_WRITTEN[: HAND_WRITTEN.index("---\nRun") + 4]
    assert out == head + "New body.\n"


def test_new_key_is_appended_and_nothing_else_moves() -> None:
    note = parse_note("project_knowledge_build.md", HAND_WRITTEN.encode())
    out = render_updated_note(note, {"source": "review"}, None).decode()
    expected = HAND_WRITTEN.replace(
        "updated: 2026-11-29T10:00:00Z\n---\n",
        "updated: 2026-11-29T10:00:00Z\nsource: review\n---\n",
    )
    assert out == expected


def test_crlf_and_bom_survive_an_update() -> None:
    raw = ("\ufeff" + HAND_WRITTEN.replace("\n", "\r\n")).encode()
    note = parse_note("project_knowledge_build.md", raw)
    assert note.bom and note.newline == "\r\n"
    out = render_updated_note(note, {"summary": "Changed."}, "Line one\nLine two")
    text = out.decode()
    assert text.startswith("\ufeff---\r\n")
    assert "summary: Changed.\r\n" in text
    assert text.endswith("---\r\nLine one\r\nLine two\r\n")
    assert "\n" not in text.replace("\r\n", "")
    again = parse_note("project_knowledge_build.md", out)
    assert again.meta["owner"] == "platform-team" and again.summary == "Changed."


def test_body_with_fences_never_makes_a_second_frontmatter_block() -> None:
    content = "---\ntype: reference_material\ntitle: Injected\n---\nafter"
    data = render_new_note({"type": "project_knowledge", "title": "Real"}, content)
    note = parse_note("project_knowledge_real.md", data)
    assert note.meta == {"type": "project_knowledge", "title": "Real"}
    assert note.content == content
    updated = render_updated_note(note, {"title": "Still real"}, content)
    assert parse_note("project_knowledge_real.md", updated).title == "Still real"
    assert updated.decode().count("title:") == 2  # ours, and the one in the body text


def test_quoted_or_flow_frontmatter_is_rewritten_correctly() -> None:
    raw = b'---\n{"type": "project_knowledge", "title": "Flow"}\n---\nbody\n'
    note = parse_note("project_knowledge_flow.md", raw)
    out = render_updated_note(note, {"title": "Block"}, None)
    again = parse_note("project_knowledge_flow.md", out)
    assert again.meta == {"type": "project_knowledge", "title": "Block"}
    assert again.body == "body\n"


BROKEN = {
    "bad yaml": (b"---\ntitle: [unclosed\ntype: project_knowledge\n---\nbody\n", "not valid YAML"),
    "no closing fence": (b"---\ntype: project_knowledge\ntitle: x\nbody\n", "no closing"),
    "not utf-8": (b"---\ntype: project_knowledge\ntitle: caf\xe9\n---\nbody\n", "UTF-8"),
    "yaml list": (b"---\n- type\n- title\n---\nbody\n", "list"),
    "yaml scalar": (b"---\njust words\n---\nbody\n", "mapping"),
    "no frontmatter": (b"# Just markdown\n", "no frontmatter"),
    "empty file": (b"", "no frontmatter"),
    "tabs in yaml": (b"---\ntype:\tproject_knowledge\n\t- x\n---\n", "YAML"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_hand_broken_notes_are_reported_with_their_file_name(case: str) -> None:
    data, why = BROKEN[case]
    with pytest.raises(BrokenNoteError) as info:
        parse_note("project_knowledge_broken.md", data)
    message = str(info.value)
    assert message.startswith("project_knowledge_broken.md: ")
    assert why.lower() in message.lower()
    assert isinstance(info.value, StoreError)


def test_empty_frontmatter_is_an_empty_mapping() -> None:
    note = parse_note("project_knowledge_x.md", b"---\n---\nbody\n")
    assert note.meta == {} and note.content == "body"


# --------------------------------------------------------------------------- round trips

_KEY = st.from_regex(r"[a-z][a-z0-9_]{0,12}", fullmatch=True)
_VALUE = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=60)
_CONTENT = st.text(
    alphabet=st.characters(exclude_categories=("Cs",), exclude_characters="\r"), max_size=300
).filter(lambda s: s.strip("\n") != "")


@settings(deadline=None, max_examples=examples(300))
@given(
    title=_VALUE, summary=_VALUE,
    extra=st.dictionaries(_KEY, _VALUE, max_size=4),
    content=_CONTENT,
)
def test_new_note_round_trip(title: str, summary: str, extra: dict[str, str],
                             content: str) -> None:
    meta = {"type": "project_knowledge", "title": title, "summary": summary,
            "created": "2026-11-29T10:00:00Z", "updated": "2026-11-29T10:00:00Z", **extra}
    data = render_new_note(meta, content)
    note = parse_note("project_knowledge_x.md", data)
    assert note.meta == meta
    assert note.content == content.strip("\n")
    assert data.decode().count("\n---\n") >= 1 and data.startswith(b"---\n")


_PLAIN = st.from_regex(r"[A-Za-z][A-Za-z0-9 ,.()'-]{0,30}[A-Za-z0-9.)]", fullmatch=True)


@settings(deadline=None, max_examples=examples(300))
@given(
    keys=st.lists(_KEY, min_size=1, max_size=6, unique=True),
    values=st.lists(_PLAIN, min_size=6, max_size=6),
    comments=st.lists(st.sampled_from(["", "# note\n", "\n", "   # indented comment\n"]),
                      min_size=6, max_size=6),
    which=st.integers(min_value=0, max_value=5),
    new_value=_VALUE,
    body=st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=200),
    crlf=st.booleans(),
)
def test_update_of_one_key_leaves_every_other_byte(
    keys: list[str], values: list[str], comments: list[str], which: int, new_value: str,
    body: str, crlf: bool,
) -> None:
    lines = [f"{k}: {values[i]}\n" + comments[i] for i, k in enumerate(keys)]
    frontmatter = "".join(lines)
    nl = "\r\n" if crlf else "\n"
    text = f"---{nl}{frontmatter.replace(chr(10), nl)}---{nl}{body}"
    note = parse_note("project_knowledge_x.md", text.encode())
    key = keys[which % len(keys)]
    out = render_updated_note(note, {key: new_value}, None).decode()

    position = keys.index(key)
    replaced = dump_yaml({key: new_value})
    expected_fm = "".join(
        (replaced + comments[i]) if i == position else line for i, line in enumerate(lines)
    )
    assert out == f"---{nl}{expected_fm.replace(chr(10), nl)}---{nl}{body}"
    again = parse_note("project_knowledge_x.md", out.encode())
    assert again.meta == {**note.meta, key: new_value}
    assert again.body == note.body


# The closing-fence rule as one regex (a fence line at the start or after any line end):
# the reference the faster search in notes.py must agree with.
_LINE_ENDS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_REFERENCE_FENCE = re.compile(
    rf"(?:\A|(?<=[{_LINE_ENDS}]))(?:---|\.\.\.)"
    r"[\t \x1f\xa0\u1680\u2000-\u200a\u202f\u205f\u3000]*"
    rf"(?:\r\n|[{_LINE_ENDS}]|\Z)"
)


@settings(max_examples=examples(500), deadline=None)
@given(st.text(alphabet=st.sampled_from(list("-.a :\t\xa0") + list(_LINE_ENDS)), max_size=40))
def test_closing_fence_search_agrees_with_the_rule(rest: str) -> None:
    from memcli.store.notes import _split_at_closing_fence

    found = _REFERENCE_FENCE.search(rest)
    if found is None:
        with pytest.raises(BrokenNoteError):
            _split_at_closing_fence("x.md", rest)
    else:
        assert _split_at_closing_fence("x.md", rest) == (rest[: found.start()],
                                                         rest[found.end():])
