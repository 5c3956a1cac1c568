"""The conversation as memcli sees it, whatever tool wrote the transcript."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["user", "assistant", "tool", "thinking"]


@dataclass(frozen=True)
class Message:
    """One utterance of a transcript slice, reduced to plain text.

    ``role`` is ``user`` for what a person typed, ``assistant`` for the model's own words,
    ``tool`` for tool calls and their results, ``thinking`` for reasoning blocks. Injected
    instructions and summaries never become a Message unless asked for.
    """

    role: Role
    text: str
    timestamp: str | None = None
