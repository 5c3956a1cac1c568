"""benchmarks/transcripts.py runs end to end (in --quick mode) and reports every row.

Timings are not checked here: a test machine's load says nothing about memcli.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# Benchmark smoke tests: the slow tier (`pytest -m "not slow"` leaves them out; CI runs them).
pytestmark = pytest.mark.slow

TRANSCRIPTS = Path(__file__).resolve().parent.parent / "benchmarks" / "transcripts.py"


def test_transcript_benchmark_reports_each_row_against_its_baseline() -> None:
    proc = subprocess.run([sys.executable, str(TRANSCRIPTS), "--quick", "--json"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    data = json.loads(proc.stdout)
    rows = {row["row"]: row for row in data["rows"]}
    assert {"memcli, defaults", "memcli, --last-turn", "memcli transcript --json"} <= set(rows)
    assert data["size_mb"] > 1 and data["lines"] > 1000
    for row in rows.values():
        assert row["median_s"] > 0 and row["ratio"] > 0 and row["cpu_ratio"] > 0, row
        assert len(row["samples"]) == data["rounds"]
    assert isinstance(data["met"], bool)
    last = {row["row"]: row for row in data["last_turn"]}
    assert {"the session's bytes, read once (floor)", "memcli, --last-turn of the session"
            } == set(last)
    memory = {(row["log"], row["row"]): row for row in data["memory"]}
    for log in ("mixed", "session"):
        for name in ("python -c pass (interpreter)", "memcli extract",
                     "memcli extract --last-turn", "memcli transcript --last-turn --json"):
            row = memory[log, name]
            assert row["peak_mb"] > 1 and row["above_mb"] >= 0, row
    # the interpreter's own peak is the baseline the others are measured above
    assert memory["session", "python -c pass (interpreter)"]["above_mb"] == 0
