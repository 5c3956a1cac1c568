"""The offline rules extractor on a long prose-heavy session, against reading that session.

    python benchmarks/rules_prose.py              # an 8 MB session, 3 rounds
    python benchmarks/rules_prose.py --size 45    # another size, in MB
    python benchmarks/rules_prose.py --quick      # 1 MB, 1 round (the smoke test)
    python benchmarks/rules_prose.py --profile    # cProfile of one extraction, top 25

The session is a Claude Code log built in a temporary folder from the LoCoMo dialogue beside
the repository (``../shared/data/locomo``; the script says so and exits 0 when it is absent):
every turn of every conversation is a ``user`` record, over and over, with fresh uuids, until
the file has the size asked for. Nearly every sentence is chat, not a memory cue: the case
where the extractor reads much and keeps little. Both rows run in this process, interleaved
one round at a time after a warm-up; the ratio is the median of the per-round ratios of
`extract --provider rules`'s work (read, then extract) to reading alone.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
LOCOMO = ROOT / ".." / "shared" / "data" / "locomo" / "locomo-dev.json"
TODAY = datetime.date(2026, 12, 2)


def dialogue(source: Path) -> list[str]:
    """Every turn's text, conversation after conversation."""
    samples = json.loads(source.read_text("utf-8"))
    return [turn["text"] for sample in samples
            for key, session in sample["conversation"].items()
            if key.startswith("session") and isinstance(session, list) for turn in session]


def _records(turns: list[str]) -> Iterator[str]:
    """Claude Code ``user`` records of ``turns``, repeated, chained by parentUuid."""
    session, parent = str(uuid.UUID(int=1)), None
    number = 0
    while True:
        for text in turns:
            number += 1
            mine = str(uuid.UUID(int=number + 1))
            yield json.dumps({
                "parentUuid": parent, "isSidechain": False, "userType": "external",
                "cwd": "/src/prose", "sessionId": session, "version": "2.0.55",
                "type": "user", "message": {"role": "user", "content": text},
                "uuid": mine, "timestamp": f"2026-12-02T05:{number // 60 % 60:02d}:"
                                           f"{number % 60:02d}.000Z"}) + "\n"
            parent = mine


def build_session(path: Path, megabytes: float, turns: list[str]) -> int:
    """Write a session of about ``megabytes`` MB; return its record count."""
    wanted, size, count = int(megabytes * 1_000_000), 0, 0
    with path.open("w", encoding="utf-8") as out:
        for record in _records(turns):
            if size >= wanted:
                break
            out.write(record)
            size += len(record.encode())
            count += 1
    return count


def read(path: Path) -> Any:
    from memcli.transcripts import read_transcript
    from memcli.transcripts.source import TranscriptFile

    return read_transcript(TranscriptFile(path))


def read_and_extract(path: Path) -> Any:
    """What `memcli extract --provider rules` does with a session: read it, then the rules."""
    from memcli.extraction.rules import extract_rules

    return extract_rules(read(path).messages, [], today=TODAY)


def _timed(fn: Callable[[Path], Any], path: Path) -> float:
    start = time.perf_counter()
    fn(path)
    return time.perf_counter() - start


def measure(path: Path, rounds: int) -> dict[str, float]:
    for fn in (read, read_and_extract):
        fn(path)  # the page cache, the imports, the lazily compiled patterns
    reads, extracts = [], []
    for _ in range(rounds):
        reads.append(_timed(read, path))
        extracts.append(_timed(read_and_extract, path))
    return {"read_s": statistics.median(reads), "extract_s": statistics.median(extracts),
            "ratio": statistics.median(e / r for e, r in zip(extracts, reads, strict=True))}


def profile(path: Path) -> None:
    import cProfile
    import pstats

    messages = read(path).messages
    from memcli.extraction.rules import extract_rules

    profiler = cProfile.Profile()
    profiler.runcall(extract_rules, messages, [], today=TODAY)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=float, default=8.0, help="session size in MB")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="1 MB, 1 round")
    parser.add_argument("--profile", action="store_true", help="profile one extraction")
    parser.add_argument("--json", action="store_true", help="print the row as JSON")
    args = parser.parse_args(argv)
    if not LOCOMO.is_file():
        print("skipped: the LoCoMo data is not beside the repository (../shared/data/locomo)")
        return 0
    size, rounds = (1.0, 1) if args.quick else (args.size, args.rounds)
    with tempfile.TemporaryDirectory() as tmp:
        session = Path(tmp) / "prose.jsonl"
        records = build_session(session, size, dialogue(LOCOMO))
        actual = session.stat().st_size / 1_000_000
        if args.profile:
            profile(session)
            return 0
        messages = len(read(session).messages)
        row = measure(session, rounds)
    if args.json:
        print(json.dumps({"size_mb": actual, "records": records, "messages": messages,
                          "rounds": rounds, **row}))
        return 0
    print(f"rules extract of a {actual:.1f} MB prose session ({records} user records), "
          f"{rounds} rounds (median)")
    print(f"  reading it                     {row['read_s']:7.2f} s   1.00 x")
    print(f"  reading it + the rules         {row['extract_s']:7.2f} s  {row['ratio']:5.2f} x "
          "reading it")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
