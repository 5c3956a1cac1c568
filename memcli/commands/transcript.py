"""``memcli transcript``: what memcli reads from a transcript, and what it leaves out."""

from __future__ import annotations

from dataclasses import dataclass

from memcli.transcripts.detect import BY_NAME
from memcli.transcripts.json_input import ProgressFn
from memcli.transcripts.model import Format, Transcript
from memcli.transcripts.reader import read_transcript
from memcli.transcripts.source import TranscriptFile
from memcli.transcripts.verdict import check


@dataclass(frozen=True)
class ReadOptions:
    fmt: str | None = None
    last_turn: bool = False
    include_tools: bool = False
    include_thinking: bool = False
    include_injected: bool = False
    strict: bool = False


@dataclass
class TranscriptReport:
    transcript: Transcript
    warnings: list[str]
    needs_attention = False  # warnings are shown; a transcript that cannot be read raises


def inspect_transcript(text: str | bytes | TranscriptFile, options: ReadOptions,
                       on_progress: ProgressFn | None = None) -> TranscriptReport:
    """Read ``text`` as ``extract`` would; raise InputError when nothing in it is readable."""
    transcript = read_transcript(
        text, fmt=options.fmt, include_tools=options.include_tools,
        include_thinking=options.include_thinking, include_injected=options.include_injected,
        last_turn=options.last_turn, strict=options.strict, on_progress=on_progress,
    )
    return TranscriptReport(transcript, check(transcript, strict=options.strict))


def known_formats() -> list[Format]:
    """Every format memcli reads, in the order detection tries them."""
    return list(BY_NAME.values())
