"""The extraction budget: what an extractor is handed of a huge message or a long session.

A paste of megabytes in one message cost the rules extractor minutes and hundreds of
megabytes; now every message is cut to its start and end, and the newest messages are kept
within the extractor's total, before redaction or either extractor reads a word. The LLM is
faked at the HTTP boundary (tests/fakeserver.py).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fakeserver import FakeServer, Step, openai_stream

from memcli.extraction.budget import (
    MESSAGE_CHARS,
    PROMPT_CHARS,
    RULES_CHARS,
    Budget,
    cut_middle,
    fit,
)
from memcli.messages import Message

LOG_LINE = "2026-01-01 12:00:00 INFO worker 17 finished job 42 in 0.3 s\n"
START = "Remember that we deploy with make ship."
MIDDLE = "Remember that the staging database is called pelican."
END = "Always run make lint before committing."


def _paste(chars: int) -> str:
    return LOG_LINE * (chars // len(LOG_LINE))


def _line(role: str, text: str) -> str:
    return json.dumps({"role": role, "content": text}) + "\n"


def _big_message() -> str:
    """One message of about 2 MB: a request, a pasted log with a cue inside, a request."""
    return f"{START}\n{_paste(1_000_000)}{MIDDLE}\n{_paste(1_000_000)}{END}"


def _titles(document: dict[str, Any]) -> str:
    return " | ".join(op["content"] for op in document["operations"])


# --------------------------------------------------------------------------- the cut itself


def test_a_cut_keeps_the_start_and_the_end_at_word_breaks_and_counts_the_rest() -> None:
    text = "alpha " * 10_000 + "omega"
    cut = cut_middle(text, 1_000)
    assert len(cut) <= 1_000
    head, mark, tail = cut.split("\n")
    assert text.startswith(head) and text.endswith(tail)
    assert head.endswith(" ") and tail.startswith(" ") and tail.endswith("omega")
    left_out = int(re.fullmatch(r"\[… ([\d,]+) characters left out …\]", mark)
                   .group(1).replace(",", ""))  # type: ignore[union-attr]
    assert len(head) + left_out + len(tail) == len(text)
    assert cut_middle(text, len(text)) == text


def test_the_newest_messages_are_kept_and_nothing_older_than_a_message_left_out() -> None:
    messages = [Message("user", f"{i} " + "x" * 400) for i in range(10)]
    messages.insert(8, Message("assistant", "y" * 5_000))
    kept, cut = fit(messages, Budget(total=2_000, person_only=True))
    # the rules count only the person's words: the long answer among the kept ones is no cost
    assert [m.text.split()[0] for m in kept if m.role == "user"] == ["6", "7", "8", "9"]
    assert kept == messages[-5:]
    assert (cut.dropped, cut.shortened) == (6, 0)
    kept, cut = fit(messages, Budget(total=2_000, person_only=False))
    assert kept == messages[-2:] and cut.dropped == 9  # the answer does not fit
    # the newest message is always handed over, cut to the message budget
    kept, cut = fit([Message("user", "z " * 50_000)], Budget(total=10, person_only=False))
    assert len(kept) == 1 and len(kept[0].text) <= MESSAGE_CHARS and cut.shortened == 1


def test_the_model_and_the_rules_read_one_message_within_the_same_budget() -> None:
    # the prompt's total holds one message cut to the message budget whole
    assert MESSAGE_CHARS <= PROMPT_CHARS <= RULES_CHARS


# --------------------------------------------------------------------------- the rules


def test_a_huge_message_gives_the_rules_its_start_and_end_and_says_what_was_cut(memenv
                                                                               ) -> None:
    turn = _line("user", _big_message())
    result = memenv.invoke("extract", "--json", input=turn)
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    found = _titles(document)
    assert "make ship" in found and "make lint" in found
    assert "pelican" not in found  # in the middle of the paste: cut
    said = [line for line in result.stderr.splitlines() if "budget" in line]
    assert len(said) == 1, result.stderr
    assert "kept the start and the end of 1 message over 60,000 characters" in said[0]
    budget = document["budget"]
    assert budget["shortened"] == 1 and budget["messages_left_out"] == 0
    assert budget["characters_left_out"] > len(turn) - 2 * MESSAGE_CHARS
    assert document["transcript"]["messages"] == 1
    # the same transcript is cut the same way
    again = memenv.invoke("extract", "--json", input=turn)
    assert json.loads(again.stdout)["operations"] == document["operations"]


def test_a_long_session_gives_the_rules_its_newest_words_of_the_person(memenv) -> None:
    chunk = _paste(50_000)
    old = _line("user", f"Remember that the old server is called heron.\n{chunk}")
    filler = "".join(_line("user", f"Look at this.\n{chunk}") + _line("assistant", "Done.")
                     for _ in range(RULES_CHARS // len(chunk)))
    turn = old + filler + _line("user", END)
    result = memenv.invoke("extract", "--json", input=turn)
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert "make lint" in _titles(document) and "heron" not in _titles(document)
    assert "left out 1 older message: the rules read the newest 1,000,000 characters of " \
           "the person's words" in result.stderr
    assert document["budget"]["messages_left_out"] == 1


def test_a_turn_within_the_budget_is_not_cut_and_says_nothing(memenv) -> None:
    result = memenv.invoke("extract", "--json", input=_line("user", START))
    assert result.exit_code == 0, result.stderr
    assert "budget" not in result.stderr and "budget" not in json.loads(result.stdout)


# --------------------------------------------------------------------------- the model


def test_the_model_is_sent_the_start_and_end_of_a_huge_message_and_the_newest_messages(
        memenv, monkeypatch: pytest.MonkeyPatch) -> None:
    older = "".join(_line("user", f"Question {i}? " + "words " * 3_000) for i in range(30))
    turn = older + _line("user", _big_message())
    with FakeServer() as server:
        server.script(Step(body=openai_stream([json.dumps({"operations": []})])))
        result = memenv.invoke("extract", "--json", input=turn, env={
            "MEMCLI_PROVIDER": "openai", "MEMCLI_MODEL": "m",
            "MEMCLI_BASE_URL": server.url + "/v1", "MEMCLI_API_KEY": "sk-test-not-secret"})
    assert result.exit_code == 0, result.stderr
    sent = server.requests[0].json()["messages"][1]["content"]
    assert START in sent and END in sent and "pelican" not in sent
    assert "[30 earlier messages left out]" in sent
    assert len(sent) < PROMPT_CHARS + 5_000  # the budget and the template around it
    assert "left out 30 older messages: the model is sent the newest 60,000 characters of " \
           "the conversation" in result.stderr
    shown = memenv.invoke("extract", "--show-prompt", input=turn)
    assert shown.exit_code == 0 and START in shown.stdout and END in shown.stdout
    assert "[30 earlier messages left out]" in shown.stdout


def test_the_budget_is_applied_before_the_redaction(memenv, tmp_path: Path) -> None:
    # a secret in the middle of a paste is never read, so it cannot be counted or sent
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    turn = _line("user", f"{START}\n{_paste(500_000)}token {token}\n{_paste(500_000)}{END}")
    result = memenv.invoke("extract", "--json", input=turn)
    document = json.loads(result.stdout)
    assert document["transcript"]["redacted"] == 0
    assert "budget" in document


@pytest.mark.slow  # a benchmark smoke test
def test_the_big_message_benchmark_runs_and_reports_both_messages_and_its_target() -> None:
    # timings are not checked here: a test machine's load says nothing about memcli
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "big_message.py"
    proc = subprocess.run([sys.executable, str(script), "--quick"], capture_output=True,
                          text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line.split()[0] for line in proc.stdout.splitlines() if line.startswith("  ")]
    assert rows == ["message", "prose", "log"], proc.stdout
    assert re.search(r"^targets: .*: (met|NOT met)$", proc.stdout, re.MULTILINE)
