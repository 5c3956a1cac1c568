"""Slugs, note file names and the names memcli refuses."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.safety.invisible_chars import INVISIBLE
from memcli.store.names import (
    INDEX_NAME,
    MAX_SLUG_BYTES,
    MAX_SLUG_CHARS,
    NOTE_TYPES,
    canonical_type,
    is_canonical_slug,
    name_key,
    note_filename,
    parse_note_name,
    slugify,
    title_key,
    unsafe_name_reason,
)

# --------------------------------------------------------------------------- slugify


@pytest.mark.parametrize(
    ("title", "slug"),
    [
        ("Build workflow", "build-workflow"),
        ("  Build   WORKFLOW!!  ", "build-workflow"),
        ("Use pnpm, not npm.", "use-pnpm-not-npm"),
        ("构建流程", "构建流程"),
        ("测试命令 is pytest", "测试命令-is-pytest"),
        ("Ünïcödé Straße", "ünïcödé-straße"),
        ("Python 3.11 / venv", "python-3-11-venv"),
        ("日本語のテスト", "日本語のテスト"),
        ("a_b-c.d", "a-b-c-d"),
    ],
)
def test_slugify_examples(title: str, slug: str) -> None:
    assert slugify(title) == slug


@pytest.mark.parametrize("title", ["🎉🚀", "!!!", "—", "...", "   ", "", "🙂 🙃 !?", "/\\"])
def test_emoji_or_punctuation_only_titles_get_a_hash_fallback(title: str) -> None:
    slug = slugify(title)
    assert slug.startswith("note-")
    assert len(slug) == len("note-") + 8
    assert slugify(title) == slug  # deterministic
    assert unsafe_name_reason(note_filename("project_knowledge", slug)) is None


def test_fallbacks_of_different_titles_differ() -> None:
    assert slugify("🎉") != slugify("🚀")


def test_slug_is_nfc_normalised_so_nfd_and_nfc_titles_agree() -> None:
    nfc = unicodedata.normalize("NFC", "Café crème")
    nfd = unicodedata.normalize("NFD", "Café crème")
    assert nfc != nfd
    assert slugify(nfc) == slugify(nfd) == "café-crème"
    assert unicodedata.is_normalized("NFC", slugify(nfd))


def test_long_titles_are_cut_at_a_word_boundary() -> None:
    title = " ".join(["word"] * 40)  # 199 characters
    slug = slugify(title)
    assert len(slug) <= MAX_SLUG_CHARS
    assert not slug.endswith("-")
    assert all(part == "word" for part in slug.split("-"))


def test_long_cjk_title_stays_readable_and_within_the_byte_budget() -> None:
    title = "记住" * 100
    slug = slugify(title)
    assert slug == ("记住" * 32)
    four_byte = "".join(chr(0x20000 + i) for i in range(100))  # CJK extension B letters
    slug = slugify(four_byte)
    assert len(slug.encode()) <= MAX_SLUG_BYTES
    assert slug and four_byte.startswith(slug)


_TEXT = st.text(
    alphabet=st.characters(exclude_categories=("Cs",)), max_size=200
) | st.sampled_from(["🎉", "a/b", "..", "中文 标题", "x" * 300, "ǅungla", "İstanbul", "ﬁ"])


@settings(deadline=None, max_examples=examples(300))
@given(_TEXT)
@example("İ" * 70)
@example("ß" * 70)
@example("\u0301abc")
def test_slugify_properties(text: str) -> None:
    slug = slugify(text)
    assert slug, "never empty"
    assert len(slug) <= MAX_SLUG_CHARS
    assert len(slug.encode()) <= MAX_SLUG_BYTES
    assert slugify(slug) == slug, "idempotent"
    assert is_canonical_slug(slug)
    assert unicodedata.is_normalized("NFC", slug)
    assert not any(c in slug for c in "/\\\x00.") and not any(c.isspace() for c in slug)
    assert not slug.startswith("-") and not slug.endswith("-")
    for note_type in NOTE_TYPES:
        filename = note_filename(note_type, slug)
        assert unsafe_name_reason(filename) is None, filename
        parsed = parse_note_name(filename)
        assert parsed is not None and parsed.type == note_type and parsed.slug == slug


# The Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) are letters to Unicode and blank on
# screen: memcli drops them as invisible (memcli.safety.invisible_chars), on purpose.
_SHOWN_LETTERS = st.characters(categories=("Lo",),
                               exclude_characters="".join(map(chr, INVISIBLE)))


@settings(deadline=None, max_examples=examples(300))
@given(st.text(alphabet=_SHOWN_LETTERS, min_size=1, max_size=100))
@example("\u115f")  # a filler alone is dropped: it would make a name that looks empty
def test_letters_of_any_script_are_kept(text: str) -> None:
    """Caseless letters (CJK, Arabic, Thai, ...) survive as they are, cut only by the budget."""
    if all(ord(c) in INVISIBLE for c in text):
        assert slugify(text) != text
        return
    expected = unicodedata.normalize("NFC", text)[:MAX_SLUG_CHARS]
    while len(expected.encode()) > MAX_SLUG_BYTES:
        expected = expected[:-1]
    assert slugify(text) == expected


# --------------------------------------------------------------------------- names


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("project_knowledge", "project_knowledge"),
        ("Project-Knowledge", "project_knowledge"),
        ("feedback", "correction_feedback"),
        ("preference", "user_preference"),
        ("reference", "reference_material"),
        (" user ", "user_preference"),
        ("memo", None),
        ("", None),
    ],
)
def test_canonical_type(value: str, expected: str | None) -> None:
    assert canonical_type(value) == expected


def test_parse_note_name() -> None:
    parsed = parse_note_name("correction_feedback_use-pnpm.md")
    assert parsed is not None
    assert (parsed.type, parsed.slug) == ("correction_feedback", "use-pnpm")
    assert parse_note_name("notes.md") is None
    assert parse_note_name("project_knowledge_.md") is None
    assert parse_note_name("project_knowledge_x.txt") is None
    assert parse_note_name("Project_Knowledge_x.md") is None


def test_case_and_nfc_twins_share_a_name_key() -> None:
    assert name_key("project_knowledge_Build.md") == name_key("project_knowledge_build.md")
    nfc = unicodedata.normalize("NFC", "project_knowledge_café.md")
    nfd = unicodedata.normalize("NFD", "project_knowledge_café.md")
    assert nfc != nfd and name_key(nfc) == name_key(nfd)
    assert name_key("project_knowledge_a.md") != name_key("project_knowledge_b.md")


def test_title_key_ignores_case_spacing_and_normalisation() -> None:
    assert title_key("Build  Workflow ") == title_key("build workflow")
    assert title_key(unicodedata.normalize("NFD", "Café")) == title_key("CAFÉ")
    assert title_key("Build workflow") != title_key("Build workflows")


# --------------------------------------------------------------------------- unsafe names

UNSAFE = {
    "../x.md": "separator",
    "../project_knowledge_x.md": "separator",
    "/etc/passwd": "separator",
    "a/b.md": "separator",
    "project_knowledge_a/b.md": "separator",
    "project_knowledge_a\\b.md": "separator",
    "MEMORY.md": "index",
    "memory.md": "index",
    ".hidden.md": "dot",
    ".project_knowledge_x.md": "dot",
    "project_knowledge_a\x00.md": "NUL",
    "project_knowledge_a\nb.md": "control",
    "project_knowledge_a\rb.md": "control",
    "project_knowledge_a\u202eb.md": "control",
    "project_knowledge_a..b.md": "..",
    "..": "..",
    "": "empty",
    "notes.md": "not a note name",
    "project_knowledge_x.txt": "not a note name",
    "project_knowledge_" + "x" * 250 + ".md": "255 bytes",
}


@pytest.mark.parametrize("filename", list(UNSAFE), ids=repr)
def test_unsafe_names_are_refused_with_a_reason(filename: str) -> None:
    reason = unsafe_name_reason(filename)
    assert reason is not None
    assert UNSAFE[filename].lower() in reason.lower(), reason


def test_plain_note_names_are_safe() -> None:
    for name in ("project_knowledge_build.md", "user_preference_语言.md",
                 "reference_material_note-1a2b3c4d.md", "correction_feedback_a-b-c.md"):
        assert unsafe_name_reason(name) is None
    assert unsafe_name_reason(INDEX_NAME) is not None
