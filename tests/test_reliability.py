"""The reliability campaigns of issue 5, reduced for CI: each with few iterations, asserting
the goal figures. `python benchmarks/reliability.py` runs them in full (docs/reliability.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
import reliability_campaigns as campaigns
import reliability_files
import reliability_hooks
import reliability_kills
import reliability_review
import reliability_storm

# Every campaign here is the slow tier's (the README's command and CI run them all): even
# reduced, each starts many stores, processes or generated inputs (2-40 s each).
pytestmark = pytest.mark.slow


def _show(name: str, figures: dict[str, object]) -> str:
    return campaigns.line(name, figures) + f"\n{figures}"


def test_crash_safety(tmp_path: Path) -> None:
    figures = campaigns.crash_safety(14, workers=2, folder=tmp_path)
    assert figures["kills"] >= 14
    assert figures["torn"] == 0, _show("crash-safety", figures)
    assert figures["history_problems"] == 0, _show("crash-safety", figures)
    assert figures["unhandled"] == 0 and figures["leftovers"] == 0


def test_concurrency(tmp_path: Path) -> None:
    figures = campaigns.concurrency(3, 3, folder=tmp_path)
    assert figures["applies"] == 9
    assert figures["lost_writes"] == 0, _show("concurrency", figures)
    assert figures["inconsistent_indexes"] == 0, _show("concurrency", figures)
    assert figures["unhandled"] == 0 and figures["leftovers"] == 0


def test_hostile_input(tmp_path: Path) -> None:
    figures = campaigns.hostile_input(in_process=True, folder=tmp_path)
    assert figures["cases"] >= 100 and figures["operations"] >= 100
    assert figures["accepted_unsafely"] == 0, _show("hostile-input", figures)
    assert figures["outside_touched"] == 0, _show("hostile-input", figures)
    assert figures["index_broken"] == 0, _show("hostile-input", figures)
    assert figures["unhandled"] == 0, _show("hostile-input", figures)


def test_fuzzing() -> None:
    figures = campaigns.fuzzing(60)
    assert figures["min_cases_per_target"] >= 60
    assert figures["unhandled"] == 0, _show("fuzzing", figures)
    assert figures["invalid_utf8"] == 0, _show("fuzzing", figures)
    assert figures["property_failures"] == 0, _show("fuzzing", figures)


def test_provider_faults(tmp_path: Path) -> None:
    figures = campaigns.provider_faults(2, folder=tmp_path)
    assert figures["runs"] == 2 * len(campaigns.FAULTS)
    assert figures["wrote_on_failure"] == 0, _show("provider-faults", figures)
    assert figures["unclear_errors"] == 0, _show("provider-faults", figures)
    assert figures["wrong_outcomes"] == 0, _show("provider-faults", figures)
    assert figures["unhandled"] == 0, _show("provider-faults", figures)


def test_secrets(tmp_path: Path) -> None:
    figures = campaigns.secrets(limit=12, folder=tmp_path)
    assert figures["reached"] == 0, _show("secrets", figures)
    # Every near-miss of the corpus comes through unredacted (the corpus says which are
    # deliberately allowed, such as published documentation examples).
    assert figures["false_positives"] == 0, _show("secrets", figures)


def test_prompt_injection(tmp_path: Path) -> None:
    figures = campaigns.prompt_injection(folder=tmp_path)
    assert figures["harmful"] == 0, _show("prompt-injection", figures)
    assert figures["unhandled"] == 0
    assert figures["applied_per_case"]["reply: 100 operations"] <= 25


def test_odd_files(tmp_path: Path) -> None:
    figures = reliability_files.odd_files(folder=tmp_path)
    assert figures["cases"] == len(reliability_files.CASES)
    assert figures["failed"] == 0, _show("odd-files", figures)
    assert figures["unhandled"] == 0, _show("odd-files", figures)


def test_hook_kills(tmp_path: Path) -> None:
    figures = reliability_hooks.hook_kills(8, 10, folder=tmp_path)
    assert figures["kills"] >= 1 and figures["hook_failures"] == 0  # kills land when they can
    assert figures["lost"] == 0 and figures["dropped"] == 0, _show("hook-kills", figures)
    assert figures["run_twice"] == 0, _show("hook-kills", figures)
    assert figures["stuck"] == 0 and figures["left_in_queue"] == [], _show("hook-kills", figures)


def test_hook_storm_with_growing_sessions(tmp_path: Path) -> None:
    """Issue 25: turns added between Stop events are all extracted, none twice."""
    figures = reliability_storm.hook_storm(16, 4, seed=3, folder=tmp_path)
    assert figures["turns"] > figures["events"] // 2 and figures["hook_failures"] == 0
    assert figures["lost_turns"] == 0, _show("hook-storm", figures)
    assert figures["duplicates"] == 0 and figures["stuck"] == 0, _show("hook-storm", figures)


def test_review_kills(tmp_path: Path) -> None:
    figures = reliability_review.review_kills(2, 4, folder=tmp_path)
    assert figures["kills"] + figures["exited_first"] == 2
    assert figures["lost"] == 0, _show("review-kills", figures)
    assert figures["twice"] == 0, _show("review-kills", figures)
    assert figures["torn"] == 0 and figures["unhandled"] == 0, _show("review-kills", figures)


def test_mcp_apply_survives_kills_of_the_server(tmp_path: Path) -> None:
    """Issue 25: SIGKILL `memcli mcp` while an SDK client applies batches."""
    figures = reliability_kills.mcp_kills(6, seed=4, folder=tmp_path)
    assert figures["kills"] == 6
    assert figures["torn"] == 0, _show("mcp-kills", figures)
    assert figures["lost"] == 0 and figures["duplicates"] == 0, _show("mcp-kills", figures)


def test_sync_converges_after_kills(tmp_path: Path) -> None:
    """Issue 25: SIGKILL `memcli sync` (with or without its git); the machines converge."""
    figures = reliability_kills.sync_kills(7, seed=5, folder=tmp_path)
    assert figures["rounds"] == 7 and figures["kills"] + figures["exited_before_kill"] == 6
    assert figures["stuck"] == 0 and figures["torn"] == 0, _show("sync-kills", figures)
    assert figures["lost"] == 0 and figures["duplicates"] == 0, _show("sync-kills", figures)
    assert figures["stray"] == 0 and figures["diverged"] == 0, _show("sync-kills", figures)
