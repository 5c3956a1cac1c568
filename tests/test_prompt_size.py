"""The extraction prompt's fixed part stays within 1,200 tokens (issue 14).

No tokenizer ships with memcli, so this test bounds characters, at the characters per token
that ``benchmarks/prompt_tokens.py`` measured with two real offline tokenizers (December
2026: the fixed text 611 tokens in cl100k_base and 658 in the legacy Claude tokenizer, 4.47
and 4.15 characters a token; the operations schema 174 and 172, 3.47 and 3.51; with issue
27's lines about the stored notes shown whole, the fixed text is 763 in cl100k_base, 4.46
characters a token, the Claude tokenizer not measured that time). The bounds
use rounder, lower ratios, so that a prompt within them is within the budget in both.
Re-run the benchmark when the templates change a lot.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from memcli.extraction.prompt import build_prompt
from memcli.providers import OPERATIONS_SCHEMA

BUDGET = 1_200  # tokens for the fixed text and the schema that json_schema modes send
SCHEMA_SHARE = 200  # of them, for the schema
TEXT_CHARS_PER_TOKEN = 4.0  # measured 4.15 at the lowest
SCHEMA_CHARS_PER_TOKEN = 3.4  # measured 3.47 at the lowest
BENCHMARK = Path(__file__).resolve().parents[1] / "benchmarks" / "prompt_tokens.py"


def _fixed_text() -> str:
    prompt = build_prompt([], [], [], today="2026-12-01")
    return f"{prompt.system}\n\n{prompt.user}"


def test_the_fixed_text_is_within_its_share_of_the_budget() -> None:
    limit = (BUDGET - SCHEMA_SHARE) * TEXT_CHARS_PER_TOKEN
    assert len(_fixed_text()) <= limit, "the prompt templates outgrew 1,000 tokens"


def test_the_schema_is_within_its_share_of_the_budget() -> None:
    limit = SCHEMA_SHARE * SCHEMA_CHARS_PER_TOKEN
    assert len(json.dumps(OPERATIONS_SCHEMA)) <= limit, "the operations schema outgrew 200 tokens"


@pytest.mark.slow  # a benchmark smoke test
def test_the_benchmark_counts_what_it_can_and_says_what_it_cannot() -> None:
    proc = subprocess.run([sys.executable, str(BENCHMARK), "--json"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    fixed = report["parts"]["fixed text"]
    assert fixed["chars"] == len(_fixed_text())
    # Every tokenizer is either counted or named as missing, with how to get it.
    named = {why.split(":")[0] for why in report["missing"]} | set(fixed["tokens"])
    assert named == {"cl100k_base", "claude-legacy"}
    assert all(0 < n <= BUDGET for n in fixed["tokens"].values())
    assert set(report["turns"]) == {"en", "zh"}
