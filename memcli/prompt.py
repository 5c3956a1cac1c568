"""The extraction prompt, from templates that users can read (memcli/prompts/*.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from string import Template

from memcli.index import IndexEntry, ordered, render_line
from memcli.messages import Message

# The model sees the newest messages first when the turn is too long to send whole.
MAX_TRANSCRIPT_CHARS = 60_000
# A closing tag in any case or spacing ("</Transcript >"): a model is no XML parser.
_FENCE_CLOSE = re.compile(r"</(?=transcript\s*>)", re.IGNORECASE)


@dataclass(frozen=True)
class PromptText:
    system: str
    user: str
    dropped_messages: int = 0

    def combined(self) -> str:
        """One text for tools that take a single prompt (`--show-prompt | some-llm`)."""
        return f"{self.system.rstrip()}\n\n{self.user}"


def template(name: str) -> str:
    return resources.files("memcli.prompts").joinpath(name).read_text("utf-8")


def fixed_part() -> str:
    """The template without the turn and the indexes: what every extraction costs."""
    return template("system.md") + template("user.md")


def build_prompt(
    messages: Sequence[Message],
    project: Sequence[IndexEntry],
    user: Sequence[IndexEntry],
    *,
    today: str,
    max_chars: int = MAX_TRANSCRIPT_CHARS,
) -> PromptText:
    transcript, dropped = render_transcript(messages, max_chars)
    values = {
        "today": today,
        "project_index": _index_lines(project),
        "user_index": _index_lines(user),
        "transcript": transcript,
    }
    system = Template(template("system.md")).safe_substitute(values)
    body = Template(template("user.md")).safe_substitute(values)
    return PromptText(system, body, dropped)


def _index_lines(entries: Sequence[IndexEntry]) -> str:
    return "\n".join(render_line(e) for e in ordered(entries)) or "(empty)"


def render_transcript(messages: Sequence[Message], max_chars: int) -> tuple[str, int]:
    """Newest messages kept whole within the budget; older ones dropped, and counted."""
    blocks: list[str] = []
    size = 0
    for message in reversed(messages):
        # A message must not be able to close the transcript element and speak as the prompt.
        text = _FENCE_CLOSE.sub("</ ", message.text)
        block = f"[{message.role}] {text}"
        if blocks and size + len(block) > max_chars:
            break
        blocks.append(block[:max_chars])
        size += len(block) + 2
    dropped = len(messages) - len(blocks)
    if dropped:
        blocks.append(f"[{dropped} earlier messages left out]")
    return "\n\n".join(reversed(blocks)), dropped
