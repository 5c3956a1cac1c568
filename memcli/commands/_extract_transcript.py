"""`memcli extract`'s reading of the transcript: its messages with secrets redacted, and what
was read (or why nothing was)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memcli.messages import Message


@dataclass(frozen=True)
class TranscriptStats:
    """What was read of the transcript (`extract --json` prints it as "transcript")."""

    messages: int
    records: int
    skipped: int
    broken: int
    formats: dict[str, int]
    truncated: int
    redacted: int
    unknown: dict[str, int]


def nothing_read(stats: TranscriptStats) -> str:
    if not stats.records and not stats.broken:
        return "nothing to extract: the transcript is empty"
    records = "1 record" if stats.records == 1 else f"{stats.records} records"
    return (f"nothing to extract: the transcript holds no message ({records}, none of them a "
            "message; `memcli transcript` shows what was read)")


def redacted(messages: Sequence[Message], enabled: bool) -> tuple[list[Message], int]:
    """Secrets out of the transcript before it is shown to an extractor or sent anywhere.

    (The reader already turned lone surrogates from JSON escapes into U+FFFD.)"""
    if not enabled:
        return list(messages), 0
    from memcli.safety.redact import redact

    cleaned: list[Message] = []
    count = 0
    for message in messages:
        text, findings = redact(message.text)
        count += len(findings)
        cleaned.append(Message(message.role, text, message.timestamp))
    return cleaned, count
