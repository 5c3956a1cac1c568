"""Hostile text costs linear time in the rules extractor, the transcript reader and the reply
parser (issue 12), and what they read from it is still right.

Each case feeds a shape at a size where the code before the fix took far more than 10 s
(minutes, mostly: it was quadratic or cubic in the size) and asserts what is read from it.
No test here asserts a time (a busy machine runs anything several times slower, and a 20 s
limit failed that way): every shape is timed by benchmarks/hostile_text.py, at 10k, 100k
and 1M characters, and its growth must stay at most 12x for 10x the input.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

_PRELUDE = """
import datetime, json, sys
sys.path.insert(0, {root!r})
from memcli.messages import Message
from memcli.extraction.rules import extract_rules

def contents(text):
    ops = extract_rules([Message("user", text)], [], today=datetime.date(2026, 11, 30))
    return [op["content"] for op in ops]
"""


def _child(code: str) -> Any:
    """What the code prints (JSON), run in a child process (its memory is its own)."""
    program = _PRELUDE.format(root=str(ROOT)) + textwrap.dedent(code)
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


# --------------------------------------------------------------------------- rules

# (the text as Python source, what the rules make of it); the comment is what it cost before
RULES_CASES = {
    # 2,000 spaces took over 90 s (the trailing cue patterns and the clause split, cubic)
    "spaces in a cue sentence": (
        '"Remember: always" + " " * 3000 + "use make check."', ["Always use make check."]),
    "tabs in a cue sentence": (
        '"Remember: always" + "\\t" * 3000 + "use make check."', ["Always use make check."]),
    # 136k characters took 46 s (each full stop read the text back to its start)
    "Chinese with ASCII full stops": ('"记住用make检查代码." * 12000', ["用make检查代码。"]),
    # 1M characters: over a minute (each unclosed tag searched to the end for its closing)
    "unclosed <system-reminder>": (
        '"<system-reminder> remember use make " * 28000 + ". Always use make check."',
        ["Always use make check."]),
    # 30k spaces took 22 s (the prohibition's reason tried again from every space)
    "spaces in a prohibition": (
        '"Don\'t edit the" + " " * 50000 + "file, it\'s vendored."',
        ["Don't edit the file, it's vendored."]),
    # 20k spaces took 8 s, 100k minutes (\s*,?\s+ after a lazy part tried every split)
    "spaces before a choice's reason": (
        '"use npm instead of pnpm" + " " * 50000 + ", the box has no pnpm"',
        ["Use npm instead of pnpm , the box has no pnpm."]),
    # 20k spaces took 3 s (the lazy subject before "is documented at" tried from each space)
    "spaces before 'is documented at'": (
        '"the api" + " " * 50000 + " is documented at https://api.example.com/docs"',
        ["The api is documented at https://api.example.com/docs."]),
    # 30k backticks took 150 s (each shorter opening of the run tried against the line)
    "a run of backticks": ('"Remember: always use " + "`" * 20000 + " ok."', None),
    # 1,000 spaces: 0.4 s to 4 s, cubic (a lazy part retried from each space of the run)
    "spaces after a command's 'use'": ('"Remember: use" + " " * 6000 + "use x."', ["Use use x."]),
    "spaces after 用": ('"记住用" + " " * 4000 + "用 x。"', ["用 用 x。"]),
    "spaces in a reference": (
        '"Remember: the" + " " * 5000 + "the https://x.io/a x."', ["The the https://x.io/a x."]),
    "spaces in 'for …, see'": ('"For" + " " * 6000 + "for https://x.io/a."', []),
    # quadratic: the rest of the sentence was copied once per peeled cue or filler
    "stacked cues": ('"记住，" * 100000 + "提交前一定要先跑测试。"', ["提交前一定要先跑测试。"]),
    "stacked fillers": ('"ok, " * 750000 + "always use make check."', ["Always use make check."]),
    # the shapes read since the public-phrasing split (test2): a habit's moment, a
    # prohibition's place or alternative, a port, a contrast, a repeated instruction
    "spaces before a habit's moment": (
        '"Run x" + " " * 200000 + "before committing."', ["Run x before committing."]),
    "commas before a prohibition's place": (
        '"Don\'t add x" + ", x" * 100000 + " to commits."', [
            "Don't add x" + ", x" * 100000 + " to commits."]),
    "commas before a prohibition's alternative": (
        '"Don\'t test x" + ", x" * 100000 + ", use y."', [
            "Don't test x" + ", x" * 100000 + ", use y."]),
    "spaces in a port fact": (
        '"locally" + " " * 200000 + "the api runs on port 3000."',
        ["Locally the api runs on port 3000."]),
    "spaces after 'I said'": ('"I said" + " " * 200000 + "use pnpm."', ["Use pnpm."]),
    "spaces before 'must'": (
        '"Files" + " " * 200000 + "must have CRLF line endings."',
        ["Files must have CRLF line endings."]),
    "spaces after 'prefer'": (
        '"prefer" + " " * 200000 + "small commits."', ["Prefer small commits."]),
    "spaces in 'my editor is'": ('"my editor" + " " * 200000 + "is vim."', ["My editor is vim."]),
    # the generic imperatives (no cue word): a sentence longer than a rules file's line is
    # not read as one, so a long run never reaches their patterns
    "spaces in a generic imperative": (
        '"Prefix" + " " * 200000 + "branches with feat/."', []),
    "spaces before a measure that is not one": ('"Indent" + " " * 200000 + "4 x."', []),
    "a long word as a generic object": ('"Sort " + "a" * 200000 + "s."', []),
    # "package manager: yarn", however far apart: the setting and its tool make one fact
    "spaces in a kind's 用": ('"包管理器用" + " " * 200000 + "yarn"', ["包管理器用 yarn."]),
    "many generic imperatives in a list": (
        '"- Sort imports alphabetically.\\n" * 20000', ["Sort imports alphabetically."]),
}


@pytest.mark.slow  # every hostile shape of the benchmark, 30 s in all
@pytest.mark.parametrize("case", sorted(RULES_CASES))
def test_hostile_shapes_through_the_rules(case: str) -> None:
    text, expected = RULES_CASES[case]
    found = _child(f"print(json.dumps(contents({text})))")
    if expected is None:  # a run of backticks: one note, its code span kept verbatim
        assert len(found) == 1 and found[0].startswith("Always use ````") and "ok" in found[0]
    else:
        assert found == expected


def test_sentence_split_reads_each_full_stop_once() -> None:
    # Structure, not time: the word before a full stop is read back at most as far as the
    # longest abbreviation, however long the run of letters and stops before it.
    from memcli.extraction.rules import sentences as rules_text

    class Counting(str):
        reads = 0

        def __getitem__(self, key: Any) -> str:
            Counting.reads += 1
            return str.__getitem__(self, key)

    sample = Counting("记住用make检查代码." * 200)
    pieces = rules_text.split_sentences(sample)
    assert len(pieces) == 200 and pieces[0] == "记住用make检查代码."
    assert Counting.reads < 30 * len(pieces)  # was about len(sample) per stop


# --------------------------------------------------------------------------- transcripts

def test_wrapper_tags_that_never_close_cost_linear_time() -> None:
    # 2M characters of "<system-reminder " without a ">": each tried to read to the end.
    found = _child("""
        from memcli.transcripts import read_transcript
        text = "<system-reminder " * 120000
        messages = read_transcript(json.dumps({"role": "user", "content": text})).messages
        print(json.dumps([[m.role, m.text == text.strip()] for m in messages]))
    """)
    assert found == [["user", True]]


def test_many_wrappers_in_a_message_cost_linear_time() -> None:
    # Each reminder's text was added to the one piece of context, copying it every time:
    # 12M characters of closed reminders took 33 s.
    found = _child("""
        from memcli.transcripts import read_transcript
        unit = "<system-reminder>x</system-reminder> hi "
        line = json.dumps({"role": "user", "content": unit * 300000}) + "\\n"
        messages = read_transcript(line, include_injected=True, max_tool_chars=10**8,
                                   max_extra_chars=10**8).messages
        print(json.dumps([[m.role, m.text.count("<system-reminder>"), m.text[:8]]
                          for m in messages]))
    """)
    assert found == [["tool", 300000, "<system-"], ["user", 0, "hi  hi  "]]


def test_many_text_parts_in_a_message_cost_linear_time() -> None:
    # The parts of one message are one utterance; each was added to it, copying it every
    # time: 300,000 parts took 9 s, 600,000 took 34 s.
    found = _child("""
        from memcli.transcripts import read_transcript
        part = {"type": "text", "text": "remember x"}
        messages = read_transcript(json.dumps({"role": "user", "content": [part] * 600000}))
        print(json.dumps([[m.role, m.text == "\\n".join(["remember x"] * 600000)]
                          for m in messages.messages]))
    """)
    assert found == [["user", True]]


def test_many_codex_request_markers_keep_the_last_request() -> None:
    # Each marker was cut off and the rest read again, one call deeper: a few thousand
    # markers raised RecursionError and the person's message was dropped whole.
    from memcli.transcripts import read_transcript

    marker = "## My request for Codex:"
    text = (" open files " + marker) * 5000 + " always use make check"
    transcript = read_transcript(json.dumps({"role": "user", "content": text}) + "\n",
                                 include_injected=True, max_extra_chars=10**7)
    said = [m.text for m in transcript.messages if m.role == "user"]
    assert said == ["always use make check"]
    context = [m.text for m in transcript.messages if m.role == "tool"]
    assert "".join(context).count(marker) == 5000


# --------------------------------------------------------------------------- reply

def test_broken_starts_in_a_reply_do_not_keep_their_windows() -> None:
    # Every failed start kept its JSONDecodeError, which holds the 4 KB window it was
    # raised on: 20,000 of them held over 80 MB, and time grew with the memory.
    found = _child("""
        import tracemalloc
        from memcli.errors import ProviderError
        from memcli.operations.reply import parse_reply
        text = '{"a": 1,, ' * 20000
        tracemalloc.start()
        try:
            parse_reply(text)
        except ProviderError as error:
            message = str(error)
        print(json.dumps([tracemalloc.get_traced_memory()[1], message]))
    """)
    peak, message = found
    assert peak < 16 * 2**20, f"{peak / 2**20:.0f} MiB"
    assert "does not parse" in message and "line 1 column 9" in message


def test_a_codex_request_after_the_setup_context_is_context() -> None:
    # Cut at the first marker and read again, the rest was injected whole when it opened
    # with Gemini's setup context; the marker-by-marker reading checked only the prefixes
    # and let the words after a later marker through as typed.
    from memcli.transcripts import read_transcript

    marker = "## My request for Codex:"
    text = (f"open files {marker} This is the Gemini CLI. We are setting up the context for "
            f"our chat. x {marker} hello")
    transcript = read_transcript(json.dumps({"role": "user", "content": text}) + "\n")
    assert [m.text for m in transcript.messages if m.role == "user"] == []
