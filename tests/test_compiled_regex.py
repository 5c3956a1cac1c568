"""Regular expressions' programs kept between runs (memcli/compiled_regex.py): the pattern
given back is the one `re.compile` makes, whatever the file holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memcli import compiled_regex

PATTERNS = [
    (r"(?<![\w-])(?:moved\s+to|switched|no\s+longer)(?![\w-])", re.I),
    (r"(?P<tool>pnpm|yarn|npm)\s*(?:,\s*)?not\s+(?P<old>\w+)", 0),
    (r"[\u3040-\u30ff\u3400-\u9fff]+", 0),
    (r"^(?:[-*+•>]|#{1,6}|\d{1,3}[.)])\s+", re.M),
    (r"(\w)'(\w)", 0),
]
TEXTS = ["We switched to pnpm, not npm", "no longer USING yarn", "迁移到 Fly.io 了",
         "- item\n## heading\n3) three", "don't won't", "ſwitched", ""]


def _same(mine: re.Pattern[str], theirs: re.Pattern[str]) -> None:
    assert (mine.pattern, mine.flags, mine.groups, mine.groupindex) == (
        theirs.pattern, theirs.flags, theirs.groups, theirs.groupindex)
    for text in TEXTS:
        assert [m.groupdict() or m.group() for m in mine.finditer(text)] == [
            m.groupdict() or m.group() for m in theirs.finditer(text)]
        assert mine.sub("_", text) == theirs.sub("_", text)


@pytest.fixture(autouse=True)
def _off() -> object:
    yield
    compiled_regex.save()  # turns it off: the next test starts without a cache


def test_kept_programs_give_the_patterns_re_compile_gives(tmp_path: Path) -> None:
    compiled_regex.use(tmp_path)
    for pattern, flags in PATTERNS:
        _same(compiled_regex.compile(pattern, flags), re.compile(pattern, flags))
    compiled_regex.save()
    files = list(tmp_path.glob("*.marshal"))
    assert len(files) == 1 and files[0].stat().st_mode & 0o077 == 0
    written = files[0].stat().st_mtime_ns
    compiled_regex.use(tmp_path)  # the next run: every program from the file
    for pattern, flags in PATTERNS:
        _same(compiled_regex.compile(pattern, flags), re.compile(pattern, flags))
    compiled_regex.save()
    assert files[0].stat().st_mtime_ns == written  # nothing new: not written again


def test_a_file_that_is_not_one_is_compiled_past(tmp_path: Path) -> None:
    compiled_regex.use(tmp_path)
    compiled_regex.compile(*PATTERNS[0])
    compiled_regex.save()
    for damaged in (b"\x00not marshal", b"", b")\x02N{}"):
        for file in tmp_path.glob("*.marshal"):
            file.write_bytes(damaged)
        compiled_regex.use(tmp_path)
        for pattern, flags in PATTERNS:
            _same(compiled_regex.compile(pattern, flags), re.compile(pattern, flags))
        compiled_regex.save()


def test_a_bad_pattern_is_re_s_error_and_off_compiles_as_re_does(tmp_path: Path) -> None:
    compiled_regex.use(tmp_path)
    with pytest.raises(re.error):
        compiled_regex.compile("(unclosed")
    compiled_regex.save()
    assert compiled_regex.compile(*PATTERNS[1]) is re.compile(*PATTERNS[1])  # re's own cache
    assert list(tmp_path.glob("*.marshal")) == []
