"""The benchmark harness runs end to end (in --quick mode) and reports every row and target.

Timings are not checked here: a test machine's load says nothing about memcli. What is
checked is that each command of the benchmark ran, that every ratio could be computed,
and that the JSON a later run compares against has the expected shape.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Benchmark smoke tests: the slow tier (`pytest -m "not slow"` leaves them out; CI runs them).
pytestmark = pytest.mark.slow

RUN = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"

ROWS = {
    "pass", "typer", "help", "version", "help_m", "lint_cold", "show_cold", "context_cold",
    "extract", "extract_rules", "extract_turn", "typer_app_help", "import_cli", "lint_libs",
    "lint_mods", "extract_libs", "extract_mods", "apply", "add", "hook_session_end",
}
SCALED = ("raw", "bare", "lint", "index", "indexcheck", "show", "context")
STORE_COMMANDS = ("lint", "index", "indexcheck", "show", "context")
TARGETS = {
    "help", "version", "lint_cold", "show_cold", "lint_large", "index_large", "lint_scale",
    "index_scale", "apply", "extract", "extract_turn", "rss_lint", "rss_index", "hook_session_end",
    "lint_raw", "context_raw", "show_raw", "indexcheck_raw",
    *(f"{c}_growth" for c in STORE_COMMANDS), *(f"rss_{c}_huge" for c in STORE_COMMANDS),
}


def test_quick_benchmark_reports_every_row_and_target(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMCLI_")}
    proc = subprocess.run([sys.executable, str(RUN), "--quick", "--quiet", "--out",
                           str(tmp_path)], capture_output=True, text=True, env=env,
                          timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = list(tmp_path.glob("*-quick.json"))
    assert len(results) == 1
    data = json.loads(results[0].read_text("utf-8"))

    assert data["quick"] is True
    sizes = data["sizes"]
    rows = {row["id"]: row for row in data["rows"]}
    expected = ROWS | {f"{c}_{n}" for c in SCALED
                       for n in (sizes["small"], sizes["large"], sizes["huge"])}
    expected |= {f"{c}_{sizes['large']}_paired" for c in SCALED}
    assert expected <= rows.keys()
    for row_id in expected:
        row = rows[row_id]
        assert row["error"] is None, (row_id, row["error"])
        assert row["runs"] >= 1 and row["median_ms"] > 0, row_id
        assert row["ratio_typer"] is not None and row["ratio_typer"] > 0, row_id
        assert row["ratio_pass"] is not None, row_id
        assert row["peak_rss_mb"] is None or row["peak_rss_mb"] > 1, row_id
    # The extraction really talked to the local server, once per run.
    assert rows["extract"]["server_requests"] == rows["extract"]["runs"] + 1
    assert rows["add"]["notes_written"] == sizes["adds"]

    targets = {t["id"]: t for t in data["targets"]}
    assert targets.keys() == TARGETS
    for target in targets.values():
        assert isinstance(target["value"], float), target
        assert target["met"] in (True, False)
        assert target["met"] or target["reason"], target

    prompt = data["prompt"]
    assert prompt["fixed_chars"] > prompt["estimate"] > 0
    # Each offline tokenizer either counted the prompt or is named with why it did not.
    assert len(prompt["tokens"]) + len(prompt["not_counted"]) == 2, prompt
    assert all(count > 0 for count in prompt["tokens"].values())
    assert "prompt, fixed part: " in proc.stdout
    assert "memcli --help / import typer" in proc.stdout


def test_completion_benchmark_runs_and_reports_each_target() -> None:
    script = RUN.parent / "completion.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMCLI_")}
    proc = subprocess.run([sys.executable, str(script), "--notes", "20", "--rounds", "1"],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line for line in proc.stdout.splitlines() if line.startswith("TAB:")]
    assert len(rows) == 3
    assert all(line.endswith(("met", "NOT MET")) for line in rows)


def test_rules_prose_benchmark_builds_a_session_of_the_persons_turns() -> None:
    script = RUN.parent / "rules_prose.py"
    proc = subprocess.run([sys.executable, str(script), "--quick", "--json"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    if proc.stdout.startswith("skipped:"):
        pytest.skip(proc.stdout.strip())
    row = json.loads(proc.stdout)
    # every record is read back as one message of the person, which the rules then read
    assert row["records"] > 1000 and row["messages"] == row["records"]
    assert 0.9 < row["size_mb"] < 1.1
    assert row["extract_s"] > row["read_s"] > 0


def test_garbage_benchmark_reports_growth_against_its_floor() -> None:
    script = RUN.parent / "garbage.py"
    proc = subprocess.run([sys.executable, str(script), "--quick", "--json"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    assert len(data["rows"]) == 3 and isinstance(data["met"], bool)
    for row in data["rows"]:
        small, large = row["bytes"]
        assert large == small * data["factor"]
        assert all(s > 0 for s in (*row["garbage_s"], *row["floor_s"], row["growth"]))
        assert row["met"] == (row["growth"] <= data["target"])


def test_hook_jobs_benchmark_drains_every_job_and_reports_each_target() -> None:
    script = RUN.parent / "hook_jobs.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMCLI_")}
    proc = subprocess.run([sys.executable, str(script), "--quick", "--json"],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    (result,) = data["results"]
    long, short = result["long"], result["short"]
    assert long["size_mb"] > 1 > short["size_mb"]
    for row in (long, short):
        assert row["drain_s"] > 0 and row["session_end_s"] > 0 and row["worker_peak_mb"] > 1
    # each job's input is its window: the log names its size
    assert long["logged_copy_mb"] is not None and long["logged_copy_mb"] < long["size_mb"]
    assert set(data["targets"]) == {"copy", "time", "worker_memory", "session_end_memory"}


def test_stdin_pipe_benchmark_reports_each_command_piped_and_redirected() -> None:
    script = RUN.parent / "stdin_pipe.py"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMCLI_")}
    proc = subprocess.run([sys.executable, str(script), "--quick", "--json"],
                          capture_output=True, text=True, env=env, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    assert data["size_mb"] > 4.2  # past SPOOL_AFTER: the pipe is spooled
    assert len(data["rows"]) == 3 and isinstance(data["met"], bool)
    for row in data["rows"]:
        assert row["file_peak_mb"] > 1 and row["pipe_peak_mb"] > 1, row
        assert row["file_s"] > 0 and row["pipe_s"] > 0, row
