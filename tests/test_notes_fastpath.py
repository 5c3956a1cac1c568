"""The plain-frontmatter fast path of memcli.store.notes must read exactly what YAML reads.

``simple_meta`` skips the YAML parser for frontmatter made of plain ``key: text`` lines
(a big store loads about twice as fast). Whenever it accepts a frontmatter, the result must
equal the YAML parser's; whenever YAML could read it differently, it must decline (None).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.store.frontmatter_yaml import load_yaml
from memcli.store.notes import parse_note, simple_meta

# Characters that mean something to YAML somewhere, plus letters of several scripts.
TRICKY = [
    *"abcXY _-:#'\"!&*|>%@`,[]{}?~.=<+0123456789\\/()$^;\t\r",
    "é", "東", "😀", "ß", "İ", "ǅ", "Ⅻ", "²", "\u0301", "ﬁ", "\u00a0", "\u2028", "\x85",
    "\ufeff", "\x07", "٣",
]
WORDS = ["yes", "No", "TRUE", "off", "null", "~", "12:30", "0x1F", "1_000", ".inf", "-1", "+2",
         ".5", "1e3", "1.5e+3", "2026-11-15T22:34:00Z", "2026-11-15", "2026-11-15 10:00:00",
         "2026-11-15t10:00:00.5+01:00", "<<", "=", "http://x.y", "a: b", "a #b", "key"]
KEYS = ["type", "title", "summary", "a_b", "x-y", "on", "Yes", "null", "k" * 130, "_k", "9k",
        "t itle", "created"]


def _yaml_reading(frontmatter: str) -> Any:
    try:
        meta = load_yaml(frontmatter)
    except yaml.YAMLError:
        return "error"
    return {str(k): v for k, v in meta.items()} if isinstance(meta, dict) else ("scalar", meta)


def _check(frontmatter: str) -> bool:
    fast = simple_meta(frontmatter)
    if fast is None:
        return False
    assert fast == _yaml_reading(frontmatter), repr(frontmatter)
    return True


def _random_value(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.2:
        return rng.choice(WORDS) + "".join(rng.choice(TRICKY) for _ in range(rng.randint(0, 3)))
    if roll < 0.35:
        stamp = f"{rng.randint(0, 9999):04d}-{rng.randint(0, 99):02d}-{rng.randint(0, 99):02d}"
        return stamp + rng.choice(["", "T10:00:00Z", " 10:00", "t01:02:03.5+01:00", "T1:2"])
    first = rng.choice(["a", "Z", "é", "東", "Ⅻ", "ǅ", "ß", "-", "'", "[", "٣", chr(rng.randint(
        0x20, 0xD7FF))])
    tail = "".join(rng.choice(TRICKY) if rng.random() < 0.3 else rng.choice("abc de")
                   for _ in range(rng.randint(0, 12)))
    return first + tail


def test_random_frontmatter_agrees_with_yaml() -> None:
    rng = random.Random(20261130)
    accepted = 0
    for _ in range(30000):
        lines = []
        for _ in range(rng.randint(1, 4)):
            key = rng.choice(KEYS)
            separator = ": " if rng.random() < 0.7 else rng.choice([":  ", ":", " : ", ":\t"])
            lines.append(key + separator + _random_value(rng) + rng.choice(["\n", "\r\n"]))
        accepted += _check("".join(lines))
    # The generator must exercise the fast path, not only the fallback.
    assert accepted > 1000


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KEYS), st.text(min_size=1, max_size=20)),
                min_size=1, max_size=4))
def test_any_text_agrees_with_yaml(pairs: list[tuple[str, str]]) -> None:
    _check("".join(f"{key}: {value}\n" for key, value in pairs))


@pytest.mark.parametrize("frontmatter", [
    "type: project_knowledge\ntitle: Build cache\nsummary: Keys change.\n"
    "created: 2026-11-15T22:34:00Z\nupdated: 2026-11-15T22:34:00Z\n",
    "title: Café au lait — 東京\r\nsummary: Use `make test`, then [x] (y) {z}!\r\n",
    "title: http://example.com/a?b=c&d\n",
])
def test_common_frontmatter_takes_the_fast_path(frontmatter: str) -> None:
    assert _check(frontmatter)


@pytest.mark.parametrize("frontmatter", [
    "", "\n", "title: yes\n", "on: x\n", "title: 'quoted'\n", "title: a # comment\n",
    "title: a: b\n", "title: 12\n", "title: 1.5\n", "title: ~\n", "title:\n", "title: a \n",
    "title: a\n  continued\n", "# comment\ntitle: a\n", "title: a\ntitle: b\n",
    "title: a\u2028b\n", "- a\n", "title: a\n\n", "title: [a, b]\n", "title: &x a\n",
])
def test_anything_unusual_goes_to_yaml(frontmatter: str) -> None:
    assert simple_meta(frontmatter) is None


def test_a_whole_note_reads_the_same_either_way() -> None:
    data = (b"---\ntype: project_knowledge\ntitle: Build cache\nsummary: Keys change.\n"
            b"created: 2026-11-15T22:34:00Z\nupdated: 2026-11-15T22:34:00Z\n---\nBody.\n")
    note = parse_note("project_knowledge_build-cache.md", data)
    assert note.meta == _yaml_reading(note.frontmatter)
    assert note.frontmatter.startswith("type:") and note.body == "Body.\n"


def _one_line_at_a_time(frontmatter: str) -> dict[str, Any] | None:
    """The fast path as it was first written, asking every question of each line: the
    whole-text checks that replaced it must accept and decline exactly the same texts."""
    from memcli.store.notes import _ISO_TIME, _SIMPLE_PAIR, _YAML_WORDS

    if not frontmatter.endswith("\n"):
        return None
    pairs = _SIMPLE_PAIR.findall(frontmatter)
    if len(pairs) != frontmatter.count("\n"):
        return None
    meta: dict[str, Any] = {}
    for key, value in pairs:
        if (key in meta or key in _YAML_WORDS or not value.isprintable() or "#" in value
                or ": " in value or value.endswith(":")):
            return None
        if value[0].isalpha():
            if value in _YAML_WORDS:
                return None
        elif _ISO_TIME.fullmatch(value) is None:
            return None
        meta[key] = value
    return meta


def test_whole_text_checks_decide_as_the_line_by_line_ones() -> None:
    rng = random.Random(20261202)
    accepted = 0
    for _ in range(30000):
        lines = []
        for _ in range(rng.randint(1, 4)):
            key = rng.choice(KEYS)
            separator = ": " if rng.random() < 0.7 else rng.choice([":  ", ":", " : ", ":\t"])
            value = _random_value(rng)
            if rng.random() < 0.2:
                value += rng.choice([":", " #", ": x", "\r", "\x85"])
            lines.append(key + separator + value + rng.choice(["\n", "\r\n"]))
        frontmatter = "".join(lines)
        expected = _one_line_at_a_time(frontmatter)
        assert simple_meta(frontmatter) == expected, repr(frontmatter)
        accepted += expected is not None
    assert accepted > 1000


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(KEYS), st.text(min_size=1, max_size=20)),
                min_size=1, max_size=4))
def test_any_text_is_decided_as_line_by_line(pairs: list[tuple[str, str]]) -> None:
    frontmatter = "".join(f"{key}: {value}\n" for key, value in pairs)
    assert simple_meta(frontmatter) == _one_line_at_a_time(frontmatter)


# ------------------------------------------------------------------ writing, the other way
# render_frontmatter writes plain `key: text` lines without PyYAML when the fast reader reads
# exactly the mapping back; those lines must be the bytes PyYAML's dump would have written,
# so a note's bytes do not depend on which path wrote it.


def test_plain_frontmatter_is_what_pyyaml_writes() -> None:
    from memcli.store.frontmatter_yaml import dump_yaml
    from memcli.store.note_bytes import render_frontmatter

    rng = random.Random(33)
    plain = 0
    for _ in range(20_000):
        keys = rng.sample(["type", "title", "summary", "created", "updated", "expires"], 4)
        meta = {key: _random_value(rng) for key in keys}
        written = render_frontmatter(meta)
        assert written == dump_yaml(meta), repr(meta)
        plain += simple_meta(written) == meta
    assert plain > 300  # the fast path is taken, not only declined


def test_a_new_note_is_rendered_without_pyyaml() -> None:
    import subprocess
    import sys

    # A fresh process: this one imported PyYAML long ago.
    code = ("import sys; from memcli.store.note_bytes import render_new_note; "
            "render_new_note({'type': 'project_knowledge', 'title': 'Build', 'summary': "
            "'Run make.', 'created': '2026-12-01T10:00:00Z', 'updated': "
            "'2026-12-01T10:00:00Z'}, 'Run make.'); print('yaml' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"
