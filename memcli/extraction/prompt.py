"""The extraction prompt, from templates that users can read (memcli/extraction/prompts/*.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from string import Template

from memcli.messages import Message
from memcli.store.index import IndexEntry, ordered, render_line

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
    return resources.files("memcli.extraction.prompts").joinpath(name).read_text("utf-8")


def fixed_part() -> str:
    """The template without the turn and the indexes: what every extraction costs."""
    return template("system.md") + template("user.md")


def build_prompt(
    messages: Sequence[Message],
    project: Sequence[IndexEntry],
    user: Sequence[IndexEntry],
    *,
    today: str,
    left_out: int = 0,
) -> PromptText:
    """The prompt for MESSAGES, already within the model's budget (:mod:`memcli.extraction.budget`);
    LEFT_OUT older messages did not fit, and the model is told so."""
    transcript = render_transcript(messages, left_out)
    values = {
        "today": today,
        "project_index": _index_lines(project),
        "user_index": _index_lines(user),
        "transcript": transcript,
    }
    system = Template(template("system.md")).safe_substitute(values)
    body = Template(template("user.md")).safe_substitute(values)
    return PromptText(system, body, left_out)


def _index_lines(entries: Sequence[IndexEntry]) -> str:
    return "\n".join(render_line(e) for e in ordered(entries)) or "(empty)"


def render_transcript(messages: Sequence[Message], left_out: int = 0) -> str:
    blocks = [f"[{left_out} earlier messages left out]"] if left_out else []
    for message in messages:
        # A message must not be able to close the transcript element and speak as the prompt.
        blocks.append(f"[{message.role}] {_FENCE_CLOSE.sub('</ ', message.text)}")
    return "\n\n".join(blocks)
