"""The rules extractor's precision, recall and routing on the labelled corpus cannot fall
below floors without this failing (benchmarks/extraction.py prints the whole table)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "extraction.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("extraction_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


bench = _bench()

# Floors a little under what the extractor scores today, so that noise in a future change
# of the corpus does not trip them but a real regression does.
FLOORS = {
    ("test", "en"): {"precision": 0.95, "recall": 0.92, "routing": 0.95},
    ("test", "zh"): {"precision": 0.95, "recall": 0.93, "routing": 0.95},
    ("dev", "en"): {"precision": 0.97, "recall": 0.95, "routing": 0.95},
    ("dev", "zh"): {"precision": 0.97, "recall": 0.95, "routing": 0.95},
    # Held out from the public phrasing (43 turns): small, so the floors leave room for one
    # turn more or less; zh recall is low because most of its misses carry no cue at all.
    ("test2", "en"): {"precision": 0.90, "recall": 0.75, "routing": 0.75},
    ("test2", "zh"): {"precision": 0.95, "recall": 0.35, "routing": 0.60},
    # 34 turns of rules-file phrasing never tuned on (recall en 0.46, zh 0.45 when added).
    ("test5", "en"): {"precision": 0.95, "recall": 0.50, "routing": 0.60},
    ("test5", "zh"): {"precision": 0.95, "recall": 0.70, "routing": 0.60},
    # 59 turns of public phrasing collected before round 6 and never tuned on (recall en 0.55,
    # zh 0.14 before it).
    ("test6", "en"): {"precision": 0.95, "recall": 0.60, "routing": 0.80},
    ("test6", "zh"): {"precision": 0.95, "recall": 0.28, "routing": 0.60},
    # 48 turns collected after round 6 and scored once (recall en 0.71, zh 0.60); only its
    # junk was looked at.
    ("test7", "en"): {"precision": 0.90, "recall": 0.60, "routing": 0.60},
    ("test7", "zh"): {"precision": 0.95, "recall": 0.50, "routing": 0.60},
    # 121 turns of session phrasing written before round 7 and scored before and after it
    # (recall en 0.633 -> 0.918, zh 0.833 -> 0.917); its author then wrote round 7's rules,
    # so the after-figure is likely optimistic. Room for a turn or two more or less.
    ("test8", "en"): {"precision": 0.88, "recall": 0.88, "routing": 0.88},
    ("test8", "zh"): {"precision": 0.90, "recall": 0.85, "routing": 0.85},
    # 48 turns written before round 8 ('everywhere' said of code, a convention said again,
    # chat about people's lives) by the author of its rules, scored before and after it
    # (recall en 0.652 -> 0.826, zh 0.500 -> 0.833; precision en 0.600, zh 0.750 -> 1.000).
    ("test9", "en"): {"precision": 0.90, "recall": 0.70, "routing": 0.80},
    ("test9", "zh"): {"precision": 0.80, "recall": 0.65, "routing": 0.80},
}

@pytest.mark.parametrize(("split", "lang"), sorted(FLOORS))
def test_quality_stays_above_its_floor(split: str, lang: str) -> None:
    score = bench.by_language(bench.evaluate(bench.load(split)))[lang]
    floor = FLOORS[(split, lang)]
    assert score.precision >= floor["precision"], bench.failures(bench.evaluate(bench.load(split)))
    assert score.recall >= floor["recall"]
    assert score.routing >= floor["routing"]


def test_corpus_is_large_bilingual_and_sourced() -> None:
    rows = [row for split in bench.SPLITS for row in bench.load(split)]
    assert len(rows) >= 400
    assert {r["lang"] for r in rows} == {"en", "zh"}
    assert len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert row["source"] and row["family"] and row["text"].strip()
        for memory in row["memories"]:
            assert memory["level"] in ("project", "user") and memory["keywords"]
            # A key word the turn does not hold could never be found in a note made from it.
            assert all(w.casefold() in row["text"].casefold() for w in memory["keywords"])
    negatives = [r for r in rows if not r["memories"]]
    assert len(negatives) >= 150


def test_scoring_counts_hits_junk_misses_and_routing() -> None:
    row = {"id": "x", "lang": "en", "family": "f", "text": "t",
           "memories": [{"level": "project", "type": "project_knowledge", "keywords": ["uv"]},
                        {"level": "user", "type": "user_preference", "keywords": ["tabs"]}]}
    ops = [{"level": "project", "type": "correction_feedback", "title": "Package manager",
            "content": "Use UV, not pip."},
           {"level": "project", "type": "project_knowledge", "title": "Junk", "content": "x y"}]
    result = bench.score_turn(row, ops)
    assert (result.score.hits, result.score.routed, len(result.junk)) == (1, 0, 1)
    assert result.misses == [row["memories"][1]]
    assert result.score.precision == 0.5 and result.score.recall == 0.5


def test_duplicates_are_counted_per_topic() -> None:
    # Two different statements that both name the topic's word: the counter sees two notes
    # on one topic, whatever the extractor thinks of them.
    sequence = {"id": "s", "topics": {"pin": ["pinned"], "none": ["kubernetes"]},
                "turns": [{"text": "remember that the python deps are pinned"},
                          {"text": "thanks"},
                          {"text": "remember that the docker base images are pinned by digest"}]}
    score = bench.duplicates([sequence])
    assert (score.sequences, score.turns, score.duplicates) == (1, 3, 1)
    # The duplicate is listed, beside the topic no turn gave a note for ("none").
    assert [d for d in score.details if d.startswith("s pin: ")]
    assert "s: no turn of a topic gave a note" in score.details
    assert round(score.per_100_turns, 1) == 33.3
