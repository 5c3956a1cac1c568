"""What the transcript-format tests share: the fixtures folder, a clean run's environment,
``memcli extract --json`` in process, and JSON lines in, (role, text) pairs out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import invoke_memcli

from memcli.transcripts import read_transcript

EXTRA = Path(__file__).parent / "fixtures" / "transcripts" / "extra"

# Settings a developer's shell may hold that would send the run to a provider.
_PROVIDER_VARIABLES = ("MEMCLI_PROVIDER", "MEMCLI_MODEL", "MEMCLI_BASE_URL", "MEMCLI_API_KEY",
                       "OPENAI_API_KEY", "OPENAI_BASE_URL")


def isolate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project store under tmp_path, a fixed clock, no provider from the environment."""
    monkeypatch.setenv("MEMCLI_PROJECT_STORE", str(tmp_path / "repo" / ".memcli" / "memory"))
    monkeypatch.setenv("MEMCLI_NOW", "2026-11-30T12:00:00Z")
    for name in _PROVIDER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def extract(path: Path, *flags: str) -> dict[str, Any]:
    """``memcli extract --json`` with the rules extractor, in process."""
    result = invoke_memcli("extract", "--json", "--input", str(path), *flags)
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def said(text: str, **options: Any) -> list[tuple[str, str]]:
    """The (role, text) of each message ``read_transcript`` reads from ``text``."""
    return [(m.role, m.text) for m in read_transcript(text, **options).messages]


def lines(*records: dict[str, Any]) -> str:
    """The records as JSON lines, each ended by a newline."""
    return "".join(json.dumps(r) + "\n" for r in records)
