"""The one JSON encoder behind every `--json` and every MCP answer."""

from __future__ import annotations

import datetime as dt
import enum
import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from memcli.json_values import dumps, to_json


class Colour(enum.Enum):
    RED = "red"


@dataclass(frozen=True)
class Inner:
    path: Path
    when: dt.date


@dataclass
class Outer:
    name: str
    inner: Inner
    tags: frozenset[str] = frozenset()
    counts: dict[str, int] = field(default_factory=dict)
    pair: tuple[int, str] = (1, "a")


def test_dataclasses_become_objects_field_by_field_in_order() -> None:
    value = Outer("n", Inner(Path("a/b.md"), dt.date(2026, 11, 29)), frozenset({"y", "x"}),
                  {"k": 2})
    assert to_json(value) == {"name": "n", "inner": {"path": "a/b.md", "when": "2026-11-29"},
                              "tags": ["x", "y"], "counts": {"k": 2}, "pair": [1, "a"]}
    assert list(json.loads(dumps(value))) == ["name", "inner", "tags", "counts", "pair"]


def test_scalars_enums_and_moments() -> None:
    moment = dt.datetime(2026, 11, 29, 10, 0, tzinfo=dt.UTC)
    assert to_json([Colour.RED, moment, None, True, 1.5]) == [
        "red", "2026-11-29T10:00:00+00:00", None, True, 1.5]


def test_keys_are_written_as_the_json_module_writes_them() -> None:
    # A note's YAML frontmatter may have keys that are not text.
    keys = {7: "a", True: "b", None: "c", 2.5: "d", "e": "e"}
    assert dumps(keys) == json.dumps(keys, ensure_ascii=False, indent=2)


def test_text_is_printed_as_memcli_always_printed_it() -> None:
    value = {"title": "测试命令 — ünïcode", "n": [1, {"x": None}]}
    assert dumps(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_anything_else_is_a_programming_error_not_a_guess() -> None:
    with pytest.raises(TypeError, match="bytes"):
        to_json({"raw": b"\x00"})
    with pytest.raises(TypeError, match="object"):
        to_json(object())
    with pytest.raises(TypeError, match="no JSON key"):
        to_json({(1, 2): "tuple key"})
