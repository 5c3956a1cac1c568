"""Redaction coverage, false positives and cost.

    python benchmarks/redaction.py            # the figures
    python benchmarks/redaction.py --quick    # smaller texts for the timing rows

Coverage: every case of tests/secret_corpus.py (credential formats from the public
catalogues, in the contexts people paste them) counts as detected when no 8-character
window of its secret survives ``redact``; a format is covered when all its cases are.
False positives: findings on the near-miss corpus (texts that hold no secret but look like
one). Cost: the time of ``find_secrets`` on 10k, 100k and 1M characters of mixed text (prose,
code, near misses and a few secrets), and the growth from each size to the next, which
must stay near 10 for a linear detector (the target is at most 12).

Held-out: benchmarks/data/redaction_heldout.txt (benchmarks/redaction_heldout.py), a set
written before the detectors were tuned for issue 25 and never tuned on: recall (marked
credentials fully gone) and precision (findings that overlap a mark), with what was missed
and what was flagged. ``--heldout`` prints only that.

When ``detect-secrets`` is installed, the same corpus is run through its default plugins
for comparison (it is not a dependency of memcli).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.redaction_heldout import load as load_heldout
from benchmarks.redaction_heldout import score as score_heldout
from memcli.safety.redact import find_secrets, redact
from tests.secret_corpus import NEAR_MISSES, SECRET_FORMATS, SECRET_VALUES, SECRETS


def _parts(value: str) -> list[str]:
    """The pieces of a secret that must be gone (a wrapped key is two pieces)."""
    flat = value.replace("\\n", "\n").replace("\r", "\n")
    return [p.strip() for p in flat.split("\n") if p.strip()]


def _leaks(value: str, out: str) -> bool:
    for part in _parts(value):
        windows = [part[i : i + 8] for i in range(0, max(1, len(part) - 7))]
        if any(w in out for w in windows if len(w) == 8) or (len(part) < 8 and part in out):
            return True
    return False


def coverage() -> tuple[dict[str, bool], int]:
    by_format: dict[str, bool] = defaultdict(lambda: True)
    missed = 0
    for (_, text), value, fmt in zip(SECRETS, SECRET_VALUES, SECRET_FORMATS, strict=True):
        ok = not _leaks(value, redact(text)[0])
        by_format[fmt] &= ok
        missed += not ok
    return dict(by_format), missed


def false_positives() -> list[str]:
    return [text for text in NEAR_MISSES if find_secrets(text)]


def _mixed_text(size: int) -> str:
    unit = "\n".join(
        [
            "We agreed to keep the password policy in the wiki; the token budget is 4096.",
            "def connect(url: str) -> Conn:  # see https://docs.internal/db?page=2",
            *NEAR_MISSES[:40],
            SECRETS[0][1],
            SECRETS[-1][1],
        ]
    )
    return (unit * (size // len(unit) + 1))[:size]


def timing(sizes: list[int]) -> list[tuple[int, float]]:
    rows = []
    for size in sizes:
        text = _mixed_text(size)
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            find_secrets(text)
            best = min(best, time.perf_counter() - start)
        rows.append((size, best))
    return rows


# Repeated units that once made a detector rescan (tests/test_redact.py runs the same units
# and asserts their work; the time is measured here, where a busy machine cannot fail it).
HOSTILE_UNITS = ["-----BEGIN PRIVATE KEY-----\n", "sk-ant-", "eyJhbGciOi.", "xoxb-1-", "://a:",
                 "password=", "token: ", "Authorization: Bearer ", "https://u:p@",
                 "API_KEY=" + "a1" * 300, "mysql -p", "Cookie: a=b;", "--password ",
                 "sshpass -p x "]


def hostile_growth(size: int) -> list[tuple[str, float, float]]:
    """Each unit repeated to ``size`` and to ``4 * size`` characters: the times."""
    rows = []
    for unit in HOSTILE_UNITS:
        times = []
        for n in (size, 4 * size):
            text = (unit * (n // len(unit) + 1))[:n]
            best = float("inf")
            for _ in range(3):
                start = time.process_time()
                redact(text)
                best = min(best, time.process_time() - start)
            times.append(best)
        rows.append((unit, times[0], times[1]))
    return rows


def detect_secrets_figures() -> tuple[int, int, int] | None:
    try:
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return None

    def found(text: str) -> list[str]:
        out = []
        for line in text.splitlines():
            out += [s.secret_value or "" for s in scan_line(line)]
        return out

    with default_settings():
        detected = 0
        for (_, text), value in zip(SECRETS, SECRET_VALUES, strict=True):
            hits = found(text)
            if all(any(p in h or (h and h in p) for h in hits) for p in _parts(value)):
                detected += 1
        fps = sum(1 for text in NEAR_MISSES if found(text))
    return detected, len(SECRETS), fps


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--heldout", action="store_true", help="only the held-out set")
    args = parser.parse_args()

    held = score_heldout(load_heldout())
    print(f"held-out: recall {held.recalled}/{held.marked} "
          f"({held.recalled / held.marked:.1%}), precision {held.correct}/{held.findings} "
          f"({held.correct / max(1, held.findings):.1%})")
    for line in held.missed:
        print(f"  missed: {line}")
    for line in held.flagged:
        print(f"  flagged: {line}")
    if args.heldout:
        return 0

    by_format, missed = coverage()
    covered = sum(by_format.values())
    kinds = {k for k, _ in SECRETS}
    print(f"coverage: {covered}/{len(by_format)} formats, "
          f"{len(SECRETS) - missed}/{len(SECRETS)} cases, {len(kinds)} reported kinds")
    for fmt, ok in sorted(by_format.items()):
        if not ok:
            print(f"  missed format: {fmt}")
    fps = false_positives()
    print(f"false positives: {len(fps)}/{len(NEAR_MISSES)} near misses")
    for text in fps:
        print(f"  flagged: {text[:70]!r}")

    sizes = [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000]
    rows = timing(sizes)
    worst = 0.0
    for i, (size, seconds) in enumerate(rows):
        growth = "" if i == 0 else f"  growth x{seconds / rows[i - 1][1]:.1f}"
        if i:
            worst = max(worst, seconds / rows[i - 1][1])
        print(f"find_secrets on {size:>9,} chars: {seconds * 1000:8.1f} ms{growth}")
    print(f"linear (10x input <= 12x time): {'yes' if worst <= 12 else 'NO'} "
          f"(worst growth x{worst:.1f})")

    size = 50_000 if args.quick else 250_000
    hostile_worst = 0.0
    print(f"hostile units, {size:,} -> {4 * size:,} chars (CPU time; linear is x4, target <= x5):")
    for unit, small, big in hostile_growth(size):
        ratio = big / max(small, 1e-6)
        hostile_worst = max(hostile_worst, ratio)
        print(f"  {unit[:24]!r:28} {small * 1000:8.1f} ms -> {big * 1000:8.1f} ms  x{ratio:.1f}")

    other = detect_secrets_figures()
    if other is None:
        print("detect-secrets: not installed (pip install detect-secrets to compare)")
    else:
        detected, tried, other_fps = other
        print(f"detect-secrets (default plugins): {detected}/{tried} cases, "
              f"{other_fps}/{len(NEAR_MISSES)} near misses flagged")
    return 0 if not missed and not fps and worst <= 12 and hostile_worst <= 5 else 1


if __name__ == "__main__":
    raise SystemExit(main())
