"""Run memcli's reliability and security campaigns in full and print one line of figures each.

    python benchmarks/reliability.py            # the full campaigns (about 10 minutes)
    python benchmarks/reliability.py --quick    # the CI sizes, in a minute or so
    python benchmarks/reliability.py --only crash-safety --only secrets
    python benchmarks/reliability.py --only odd-files --only hook-kills
    python benchmarks/reliability.py --only review-kills
    python benchmarks/reliability.py --only mcp-kills --only sync-kills

Every campaign runs in a temporary folder (HOME and MEMCLI_HOME included) and talks only to
127.0.0.1. The figures also go to benchmarks/results/reliability-<time>.json.
docs/reliability.md explains what each campaign does and what each figure means.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import reliability_campaigns as campaigns  # noqa: E402
import reliability_files  # noqa: E402
import reliability_hooks  # noqa: E402
import reliability_kills  # noqa: E402
import reliability_review  # noqa: E402
import reliability_storm  # noqa: E402

Runner = Callable[[], dict[str, Any]]


def plan(quick: bool) -> dict[str, Runner]:
    """The campaigns, in the order they run, at full or at CI size."""
    if quick:
        return {
            "crash-safety": lambda: campaigns.crash_safety(14),
            "concurrency": lambda: campaigns.concurrency(3, 3),
            "hostile-input": lambda: campaigns.hostile_input(in_process=True),
            "fuzzing": lambda: campaigns.fuzzing(60),
            "provider-faults": lambda: campaigns.provider_faults(2),
            "secrets": lambda: campaigns.secrets(limit=12),
            "prompt-injection": campaigns.prompt_injection,
            "odd-files": reliability_files.odd_files,
            "hook-kills": lambda: reliability_hooks.hook_kills(8, 10),
            "hook-storm": lambda: reliability_storm.hook_storm(40, 4, kills=5),
            "review-kills": lambda: reliability_review.review_kills(3, 6),
            "mcp-kills": lambda: reliability_kills.mcp_kills(6),
            "sync-kills": lambda: reliability_kills.sync_kills(7),
        }
    return {
        "crash-safety": lambda: campaigns.crash_safety(500),
        "concurrency": lambda: campaigns.concurrency(8, 25),
        "hostile-input": lambda: campaigns.hostile_input(in_process=False),
        "fuzzing": lambda: campaigns.fuzzing(10_000, workers=2),
        "provider-faults": lambda: campaigns.provider_faults(20),
        "secrets": campaigns.secrets,
        "prompt-injection": campaigns.prompt_injection,
        "odd-files": reliability_files.odd_files,
        "hook-kills": lambda: reliability_hooks.hook_kills(60, 100),
        "hook-storm": lambda: reliability_storm.hook_storm(200, 4, kills=40),
        "review-kills": lambda: reliability_review.review_kills(40, 8),
        "mcp-kills": lambda: reliability_kills.mcp_kills(100),
        "sync-kills": lambda: reliability_kills.sync_kills(60),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="CI sizes instead of the full run")
    parser.add_argument("--only", action="append", default=[], metavar="CAMPAIGN",
                        help="run only this campaign (repeatable)")
    parser.add_argument("--results", type=Path, default=ROOT / "benchmarks" / "results",
                        help="folder for the JSON figures")
    args = parser.parse_args(argv)
    chosen = plan(args.quick)
    unknown = [name for name in args.only if name not in chosen]
    if unknown:
        parser.error(f"unknown campaign {unknown[0]!r}; choose from {', '.join(chosen)}")
    # Nothing may reach the real home folder, whatever a campaign forgets.
    home = tempfile.mkdtemp(prefix="memcli-reliability-home-")
    os.environ["HOME"] = home
    os.environ["MEMCLI_HOME"] = str(Path(home) / ".memcli")
    started = time.monotonic()
    results: dict[str, Any] = {}
    for name, runner in chosen.items():
        if args.only and name not in args.only:
            continue
        begun = time.monotonic()
        figures = runner()
        figures.setdefault("seconds", round(time.monotonic() - begun, 1))
        results[name] = figures
        print(campaigns.line(name, figures), flush=True)
    total = round(time.monotonic() - started, 1)
    print(f"total: {total} s", flush=True)
    args.results.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = args.results / f"reliability-{'quick-' if args.quick else ''}{stamp}.json"
    document = {
        "when": stamp, "quick": args.quick, "seconds": total,
        "python": platform.python_version(), "cpus": os.cpu_count(),
        "lines": [campaigns.line(name, figures) for name, figures in results.items()],
        "campaigns": results,
    }
    out.write_text(json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n",
                   "utf-8")
    print(f"figures written to {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    goals_met = all(_goal_met(name, figures) for name, figures in results.items())
    return 0 if goals_met else 1


GOALS: dict[str, tuple[str, ...]] = {
    "crash-safety": ("torn", "unhandled"),
    "concurrency": ("lost_writes", "inconsistent_indexes", "unhandled"),
    "hostile-input": ("accepted_unsafely", "outside_touched", "index_broken", "unhandled"),
    "fuzzing": ("unhandled", "invalid_utf8", "property_failures"),
    "provider-faults": ("wrote_on_failure", "unclear_errors", "wrong_outcomes", "unhandled"),
    "secrets": ("reached",),
    "prompt-injection": ("harmful", "unhandled"),
    "odd-files": ("failed", "unhandled"),
    "hook-kills": ("lost", "run_twice", "stuck"),
    "hook-storm": ("lost_turns", "duplicates", "stuck"),
    "review-kills": ("lost", "twice", "torn", "unhandled"),
    "mcp-kills": ("torn", "lost", "duplicates"),
    "sync-kills": ("torn", "lost", "duplicates", "stray", "stuck", "diverged"),
}


def _goal_met(name: str, figures: dict[str, Any]) -> bool:
    return all(figures.get(key) == 0 for key in GOALS[name])


if __name__ == "__main__":
    sys.exit(main())
