"""benchmarks/extraction.py --split real: the labels of the transcript fixtures' user turns
are kept by reference (file, n-th user message, SHA-1), read through memcli's reader, and a
change in what the reader returns stops the run instead of scoring the wrong turns."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while building
    spec.loader.exec_module(module)
    return module


real = _module("extraction_real")
bench = _module("extraction")

FAMILIES = {"preference", "correction", "update", "reversal", "fact_in_passing", "two_facts",
            "explicit", "reference", "none_question", "none_oneoff", "none_paste",
            "none_thanks", "none_quote", "none_hypothetical", "none_thistask",
            "none_assistant", "none_placeholder"}
TYPES = {"user_preference", "correction_feedback", "project_knowledge", "reference_material"}


def _rows() -> list[dict[str, object]]:
    return [json.loads(line) for line in real.LABELS.read_text("utf-8").splitlines()]


def test_the_labels_hold_references_not_text() -> None:
    rows = _rows()
    assert len(rows) >= 60
    seen: dict[str, list[int]] = {}
    for row in rows:
        assert set(row) == {"file", "index", "sha1", "lang", "family", "memories"}, row
        assert re.fullmatch(r"[0-9a-f]{40}", str(row["sha1"]))
        assert row["lang"] in bench.LANGS and row["family"] in FAMILIES
        memories = row["memories"]
        assert isinstance(memories, list)
        # a none-family turn holds nothing; every other family holds something
        assert (not memories) == str(row["family"]).startswith("none_"), row
        for memory in memories:
            assert memory["level"] in ("project", "user") and memory["type"] in TYPES
            assert memory["keywords"] and all(memory["keywords"])
        seen.setdefault(str(row["file"]), []).append(int(str(row["index"])))
    # every user message of a file is labelled, each once, in the reader's order
    assert all(indexes == list(range(len(indexes))) for indexes in seen.values())


def _session(folder: Path, name: str, texts: list[str]) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for text in texts:
        lines.append(json.dumps({"role": "user", "content": text}))
        lines.append(json.dumps({"role": "assistant", "content": "ok"}))
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _labels(path: Path, rows: list[tuple[str, int, str]]) -> Path:
    path.write_text("".join(json.dumps({
        "file": name, "index": index, "sha1": hashlib.sha1(text.encode()).hexdigest(),
        "lang": "en", "family": "none_oneoff", "memories": []}) + "\n"
        for name, index, text in rows), "utf-8")
    return path


def test_rows_read_their_text_through_memcli_and_a_changed_text_stops_the_run(
        tmp_path: Path) -> None:
    folder = tmp_path / "transcripts"
    session = _session(folder, "tool/a.jsonl", ["run the linter", "we deploy with fly.io"])
    labels = _labels(tmp_path / "labels.jsonl", [("tool/a.jsonl", 0, "run the linter"),
                                                 ("tool/a.jsonl", 1, "we deploy with fly.io")])
    rows = real.load_rows(folder, labels)
    assert [(r["id"], r["text"]) for r in rows] == [
        ("tool/a.jsonl#0", "run the linter"), ("tool/a.jsonl#1", "we deploy with fly.io")]

    _session(folder, "tool/a.jsonl", ["run the linter", "we deploy with heroku"])
    with pytest.raises(real.RealSplitError, match=r"tool/a\.jsonl#1: .*another SHA-1"):
        real.load_rows(folder, labels)
    session.unlink()
    with pytest.raises(real.RealSplitError, match=r"2 of 2 .*reads 0 user messages"):
        real.load_rows(folder, labels)


def test_an_opencode_session_folder_is_one_session(tmp_path: Path) -> None:
    _session(tmp_path, "codex/r.jsonl", ["x"])
    (tmp_path / "opencode").mkdir()
    (tmp_path / "opencode" / "msg.json").write_text("{}", "utf-8")
    (tmp_path / "SOURCES.md").write_text("where from", "utf-8")
    assert real.sessions(tmp_path) == ["codex/r.jsonl", "opencode"]


def test_the_split_is_skipped_without_fixtures_and_never_listed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--split", "real", "--transcripts", str(tmp_path / "absent")]) == 0
    assert "real          skipped: no transcript fixtures at" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        bench.main(["--split", "real", "--failures"])
    assert "--failures is not for the real split" in capsys.readouterr().err
    # fixtures that are not the labelled ones: an error naming the rows, exit 1
    (tmp_path / "other").mkdir()
    assert bench.main(["--split", "real", "--transcripts", str(tmp_path / "other")]) == 1
    assert "labelled rows no longer match" in capsys.readouterr().err


@pytest.mark.skipif(not real.TRANSCRIPTS.is_dir(),
                    reason="the transcript fixtures are not beside the repository (../shared)")
def test_the_shared_fixtures_still_read_as_labelled() -> None:
    rows = real.load_rows(real.TRANSCRIPTS)
    for row in rows:
        for memory in row["memories"]:
            assert all(w.casefold() in row["text"].casefold() for w in memory["keywords"])
    assert {row["file"] for row in rows} <= set(real.sessions(real.TRANSCRIPTS))
