"""The extraction prompt, from templates that users can read (memcli/extraction/prompts/*.md)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from string import Template

from memcli.messages import Message
from memcli.store.index import IndexEntry, ordered, render_line

# The stored notes shown whole (found by memcli.search.related), so that a model updates the
# note a turn changes instead of writing a second one: at most this many, within this many
# tokens (memcli.tokens' estimate), each body cut to RELATED_NOTE_CHARS.
# benchmarks/prompt_tokens.py measures it.
RELATED_NOTES = 5
RELATED_BUDGET = 800
RELATED_NOTE_CHARS = 800
_NOTE_CLOSE = re.compile(r"</(?=note\s*>)", re.IGNORECASE)

# A closing tag in any case or spacing ("</Transcript >"): a model is no XML parser.
_FENCE_CLOSE = re.compile(r"</(?=transcript\s*>)", re.IGNORECASE)


@dataclass(frozen=True)
class PromptText:
    system: str
    user: str
    dropped_messages: int = 0
    related: tuple[str, ...] = ()  # "level/filename" of the stored notes shown whole

    def combined(self) -> str:
        """One text for tools that take a single prompt (`--show-prompt | some-llm`)."""
        return f"{self.system.rstrip()}\n\n{self.user}"


@dataclass(frozen=True)
class RelatedNote:
    """A stored note the prompt shows whole: the turn may change it."""

    level: str
    filename: str
    title: str
    summary: str
    content: str

    def render(self) -> str:
        body = _NOTE_CLOSE.sub("</ ", self.content[:RELATED_NOTE_CHARS].rstrip())
        cut = " (cut)" if len(self.content) > RELATED_NOTE_CHARS else ""
        return (f'<note level="{self.level}" filename="{self.filename}">\n'
                f"title: {_NOTE_CLOSE.sub('</ ', self.title)}\n"
                f"summary: {_NOTE_CLOSE.sub('</ ', self.summary)}\n{body}{cut}\n</note>")



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
    related: Sequence[RelatedNote] = (),
) -> PromptText:
    """The prompt for MESSAGES, already within the model's budget
    (:mod:`memcli.extraction.budget`); LEFT_OUT older messages did not fit, and the model is
    told so. RELATED are the stored notes the turn may change, shown whole."""
    transcript = render_transcript(messages, left_out)
    values = {
        "today": today,
        "project_index": _index_lines(project),
        "user_index": _index_lines(user),
        "related_notes": "\n".join(note.render() for note in related) or "(none)",
        "transcript": transcript,
    }
    system = Template(template("system.md")).safe_substitute(values)
    body = Template(template("user.md")).safe_substitute(values)
    return PromptText(system, body, left_out,
                      tuple(f"{note.level}/{note.filename}" for note in related))


def within_budget(candidates: Sequence[RelatedNote], redact: bool = True) -> list[RelatedNote]:
    """Of CANDIDATES (best first), those the prompt shows: within RELATED_NOTES and
    RELATED_BUDGET; with REDACT, secrets out of them (they leave the machine with it)."""
    from memcli.tokens import count_tokens

    chosen: list[RelatedNote] = []
    used = 0
    for candidate in candidates:
        if len(chosen) == RELATED_NOTES:
            break
        note = RelatedNote(candidate.level, candidate.filename,
                           *(_scrubbed(text, redact) for text in
                             (candidate.title, candidate.summary, candidate.content)))
        cost = count_tokens(note.render())
        if used + cost <= RELATED_BUDGET:
            chosen.append(note)
            used += cost
    return chosen


def _index_lines(entries: Sequence[IndexEntry]) -> str:
    return "\n".join(render_line(e) for e in ordered(entries)) or "(empty)"


def render_transcript(messages: Sequence[Message], left_out: int = 0) -> str:
    blocks = [f"[{left_out} earlier messages left out]"] if left_out else []
    for message in messages:
        # A message must not be able to close the transcript element and speak as the prompt.
        blocks.append(f"[{message.role}] {_FENCE_CLOSE.sub('</ ', message.text)}")
    return "\n\n".join(blocks)


def _scrubbed(text: str, enabled: bool) -> str:
    if not enabled:
        return text
    from memcli.safety.redact import redact

    return redact(text)[0]
