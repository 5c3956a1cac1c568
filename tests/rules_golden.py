"""The rules extractor's whole output on a fixed set of inputs, for a differential test.

    python tests/rules_golden.py    # rewrite tests/fixtures/rules_golden.json, and say how
                                    # many LoCoMo chat turns give a note

The inputs: every turn of benchmarks/extraction.py's corpus (all splits, one message each, as
that benchmark extracts them), the person's messages of each transcript fixture (stored in
the golden file itself, so a change to a transcript reader does not change what this
compares), and the LoCoMo dialogue beside the repository (each turn alone, and each
conversation as one session of the person's messages). For each input the golden file holds
the operations and the trace (what was found, kept and skipped, and why), as JSON.

Regenerate it only from code whose output is the reference: a speed-up must leave it as it is
(tests/test_rules_golden.py compares).
"""

from __future__ import annotations

import dataclasses
import datetime
import hashlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT / "benchmarks" / "data" / "extraction"
SPLITS = ("dev", "test", "test2", "test5", "test6", "test7", "test8", "test9")
FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"
LOCOMO = ROOT / ".." / "shared" / "data" / "locomo" / "locomo-dev.json"
GOLDEN = ROOT / "tests" / "fixtures" / "rules_golden.json"
TODAY = datetime.date(2026, 5, 12)

Messages = list[tuple[str, str]]


def _plain(value: Any) -> Any:
    if isinstance(value, frozenset | set):
        return sorted(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    raise TypeError(type(value).__name__)


def _finding(finding: Any) -> dict[str, Any]:
    # What the cue rules found, as recorded before the learned detector: its two flags
    # (``changes``, ``learned``) steer only how the note is matched, not what it says.
    record = dataclasses.asdict(finding)
    record.pop("changes", None)
    record.pop("learned", None)
    return record


def run(messages: Messages) -> dict[str, Any]:
    """The operations and the trace of one extraction, as JSON values."""
    from memcli.extraction.rules import RulesTrace, extract_rules
    from memcli.messages import Message

    trace = RulesTrace()
    # The cue rules' own output: the learned detector's is measured, not pinned (its
    # outputs on its own training rows say nothing; benchmarks/extraction.py scores it).
    ops = extract_rules([Message(role, text) for role, text in messages], [], today=TODAY,
                        trace=trace, mode="rules")
    kept = [_finding(f) for f in trace.kept]
    found = [_finding(f) for f in trace.found]
    record = {"ops": ops, "kept": kept, "skipped": [dataclasses.asdict(s) for s in trace.skipped]}
    if found != kept:  # before repeats were merged, where that differs
        record["found"] = found
    return json.loads(json.dumps(record, default=_plain, ensure_ascii=False))


def digested(record: dict[str, Any]) -> dict[str, Any]:
    """The operations, and the rest of the trace as a digest: the LoCoMo turns skip nearly
    every sentence, and their reasons in full would make the file megabytes."""
    rest = json.dumps({k: v for k, v in record.items() if k != "ops"}, ensure_ascii=False,
                      sort_keys=True)
    return {"ops": record["ops"], "trace": hashlib.sha256(rest.encode()).hexdigest()}


def corpus_inputs() -> Iterator[tuple[str, Messages]]:
    for split in SPLITS:
        lines = (CORPUS / f"{split}.jsonl").read_text("utf-8").splitlines()
        for number, line in enumerate(line for line in lines if line.strip()):
            yield f"{split}:{number}", [("user", json.loads(line)["text"])]


def fixture_inputs() -> Iterator[tuple[str, Messages]]:
    """Each fixture's messages as extract reads them; the others' text is left out (the
    rules read only the person's), their place kept (a finding names its message)."""
    from memcli.transcripts import read_transcript

    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file() and path.suffix != ".md":
            messages = read_transcript(path.read_bytes()).messages
            yield (str(path.relative_to(FIXTURES)),
                   [(m.role, m.text if m.role == "user" else "") for m in messages])


def locomo_inputs() -> Iterator[tuple[str, Messages]]:
    samples = json.loads(LOCOMO.read_text("utf-8"))
    for sample in samples:
        turns = [turn["text"] for key, session in sample["conversation"].items()
                 if key.startswith("session") and isinstance(session, list)
                 for turn in session]
        for number, text in enumerate(turns):
            yield f"{sample['sample_id']}:{number}", [("user", text)]
        yield sample["sample_id"], [("user", text) for text in turns]


def build() -> dict[str, Any]:
    fixtures = {name: {"messages": messages, **run(messages)}
                for name, messages in fixture_inputs()}
    return {"today": TODAY.isoformat(),
            "corpus": {name: run(messages) for name, messages in corpus_inputs()},
            "fixtures": fixtures,
            "locomo": {name: digested(run(messages)) for name, messages in locomo_inputs()}}


def dump(golden: dict[str, Any]) -> str:
    """One line per input, so a difference reads as a diff of the inputs that changed."""
    def entries(section: dict[str, Any]) -> str:
        return ",\n".join(json.dumps(k, ensure_ascii=False) + ": "
                           + json.dumps(v, ensure_ascii=False, sort_keys=True)
                           for k, v in section.items())

    parts = [f'"{name}": {{\n{entries(golden[name])}\n}}'
             for name in ("corpus", "fixtures", "locomo")]
    return f'{{"today": "{golden["today"]}",\n' + ",\n".join(parts) + "}\n"


def chat_notes(golden: dict[str, Any]) -> tuple[int, int]:
    """How many LoCoMo turns (each alone) give a note, of how many: chat between friends,
    where every note is junk for a coding agent."""
    turns = [record for name, record in golden["locomo"].items() if ":" in name]
    return sum(1 for record in turns if record["ops"]), len(turns)


if __name__ == "__main__":
    built = build()
    GOLDEN.write_text(dump(built), "utf-8")
    print(f"wrote {GOLDEN.relative_to(ROOT)}")
    if built["locomo"]:
        noted, turns = chat_notes(built)
        print(f"LoCoMo chat turns that give a note: {noted} of {turns}")
