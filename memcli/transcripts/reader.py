"""``read_transcript``: text in, the conversation and an account of what was left out."""

from __future__ import annotations

from collections import Counter
from typing import Any

from memcli.errors import UsageError
from memcli.transcripts import order
from memcli.transcripts.detect import (
    BY_NAME,
    FORMATS,
    ROLE_FORMATS,
    WHOLE_INPUT_PASSES,
    detect,
    forced,
    kind_of,
    text_format,
)
from memcli.transcripts.formats import cline, copilot_chat
from memcli.transcripts.formats.gemini import set_messages
from memcli.transcripts.model import Entry, Format, Options, Record, Transcript
from memcli.transcripts.records import ProgressFn, describe, parse_records
from memcli.transcripts.select import apply_budgets, from_last_typed, visible_pieces
from memcli.transcripts.text import blocks


def read_transcript(
    text: str,
    *,
    fmt: str | None = None,
    include_tools: bool = False,
    include_thinking: bool = False,
    include_injected: bool = False,
    last_turn: bool = False,
    strict: bool = False,
    max_tool_chars: int = 2000,
    max_extra_chars: int = 20000,
    on_progress: ProgressFn | None = None,
) -> Transcript:
    """Read ``text`` (JSONL, pretty-printed records, one JSON document, or one of the
    Markdown logs of :data:`~memcli.transcripts.detect.TEXT_FORMATS`) into a Transcript.

    Never raises on malformed input unless ``strict`` is set (then :class:`InputError` names
    the first line that is not JSON). ``fmt`` forces one of :data:`FORMATS` for every record.
    Tool calls and results come out as role ``tool`` with ``include_tools``, reasoning as role
    ``thinking`` with ``include_thinking``, and injected context as role ``tool`` with
    ``include_injected``: it is context the agent was given, not something a person or the
    assistant said, and ``tool`` is the one role whose text the extractor treats as material
    rather than as a statement. Each of those messages is cut to ``max_tool_chars`` and all
    of them together to ``max_extra_chars``.
    """
    opts = Options(include_tools, include_thinking, include_injected, last_turn,
                   max_tool_chars, max_extra_chars)
    _check_options(fmt, opts)
    text = text.removeprefix("\ufeff")
    # Markdown, not JSON: its blocks are the records. Forced on anything else, the text is
    # read as JSON and nothing in it is that format's, as with any other forced format.
    if (markdown := text_format(text, fmt)) is not None:
        lines, first = describe(text)
        return read_values(markdown.records(text), opts, markdown.format.name, lines=lines,
                           first_line=first)
    parsed = parse_records(text, strict, on_progress)
    return read_values(parsed.values, opts, fmt, broken=parsed.broken, lines=parsed.lines,
                       first_line=parsed.first_line)


def read_values(values: list[Any], opts: Options, fmt: str | None = None, *, broken: int = 0,
                lines: int = 0, first_line: str = "") -> Transcript:
    """Read JSON values already parsed (a session folder's files, a document's items)."""
    _check_options(fmt, opts)
    if fmt in (None, "copilot-chat"):
        values = copilot_chat.replayed(values)  # a VS Code mutation log: its state
    collector = _Collector(fmt)
    for rec_no, value in enumerate(values):
        collector.add_record(value, rec_no)
    if fmt is None:
        collector.fold_responses()
    entries, dropped = collector.entries, Counter[str]()
    for settle in WHOLE_INPUT_PASSES:
        settle(entries, dropped)
    order.apply_gemini_rewinds(entries, dropped)
    order.keep_last_gemini_copy(entries)
    order.drop_echoes(entries, dropped)
    pieces = visible_pieces(order.conversation_order(entries, dropped), opts, dropped)
    if opts.last_turn:
        pieces = from_last_typed(pieces, dropped)
    messages, formats, truncated = apply_budgets(pieces, opts)
    if fmt is None and (into := fold_plain(collector.formats)):
        formats = [into if f == "plain" else f for f in formats]
    with_messages = {e.rec_no for e in entries if e.pieces is not None}
    return Transcript(
        messages=messages,
        records=len(values),
        skipped=len(values) - len(with_messages),
        broken=broken,
        formats=collector.formats,
        truncated=truncated,
        message_formats=formats,
        unknown=dict(collector.unknown),
        dropped=dict(dropped),
        lines=lines,
        first_line=first_line,
        forced=fmt,
    )


def _check_options(fmt: str | None, opts: Options) -> None:
    if fmt is not None and fmt not in FORMATS:
        raise UsageError(f"unknown transcript format {fmt!r}; use one of: {', '.join(FORMATS)}")
    if opts.max_tool_chars < 0 or opts.max_extra_chars < 0:
        raise UsageError("transcript size budgets must be 0 or more characters")


_PREFERRED = ("gemini", "claude-code", "codex", "cline", "anthropic")


class _Collector:
    """Records to entries, counting each top-level record once under one format."""

    def __init__(self, forced_name: str | None) -> None:
        self.forced = forced_name
        self.entries: list[Entry] = []
        self.formats: dict[str, int] = {}
        self.unknown: Counter[str] = Counter()
        self.bare_responses = 0  # top-level OpenAI Responses messages ({"type": "message"})

    def add_record(self, value: Any, rec_no: int) -> None:
        found = self._record(value, rec_no)
        if found is None:
            self.unknown[kind_of(value)] += 1
            return
        self.formats[found] = self.formats.get(found, 0) + 1
        if found == "openai" and isinstance(value, dict) and value.get("type") == "message":
            self.bare_responses += 1

    def fold_responses(self) -> None:
        """A legacy Codex rollout writes its messages as bare Responses messages beside its
        other items: when every OpenAI record is one, they are that rollout's."""
        if "codex" not in self.formats or self.formats.get("openai") != self.bare_responses:
            return
        self.formats["codex"] += self.formats.pop("openai")
        for entry in self.entries:
            if entry.fmt == "openai":
                entry.fmt = "codex"

    def _record(self, value: Any, rec_no: int) -> str | None:
        items = _items(value)
        if items is None:
            return self._one(value, rec_no, self.forced) if isinstance(value, dict) else None
        hint = "cline" if self.forced is None and cline.claims(items) else self.forced
        if isinstance(value, dict) and "system" in value:
            # an Anthropic request's system prompt, a string or text blocks
            prompt = blocks(value["system"], "user", None, injected=True)
            for piece in prompt:
                piece.reason = "system prompt"
            self.entries.append(Entry(len(self.entries), rec_no, "anthropic", value, prompt))
        start = len(self.entries)
        found = [f for item in items if isinstance(item, dict)
                 if (f := self._one(item, rec_no, hint))]
        if isinstance(value, dict) and "system" in value and self.forced is None:
            found.append("anthropic")  # a top-level system prompt is Anthropic's request shape
        if isinstance(value, dict) and set_messages(value) is not None:
            self._one(value, rec_no, self.forced)  # the $set patch itself, a Gemini record
            found.append("gemini")
        document = _document_format(found, value, hint)
        if document in ROLE_FORMATS:
            # bare lines of a chat document are that document's format
            for entry in self.entries[start:]:
                if entry.fmt in ("openai", "plain"):
                    entry.fmt = document
        return document

    def _one(self, rec: Record, rec_no: int, hint: str | None = None) -> str | None:
        fmt = self._format_of(rec, hint)
        if fmt is None:
            return None
        try:
            pieces = fmt.read(rec)
        except RecursionError:
            pieces = None  # a pathologically nested value: not worth a message
        self.entries.append(Entry(len(self.entries), rec_no, fmt.name, rec, pieces))
        return fmt.name

    def _format_of(self, rec: Record, hint: str | None) -> Format | None:
        if hint is not None:
            return forced(rec, hint)
        return detect(rec)


def _items(value: Any) -> list[Any] | None:
    """The records inside a document: a JSON array, ``{"messages": [...]}`` (chat request,
    fine-tuning row, whole session), ``{"loglines": [...]}``, ``{"history": [...]}`` (a
    Gemini CLI checkpoint), ``{"requests": [...]}`` (a VS Code chat session), a Gemini
    ``$set`` of messages."""
    if isinstance(value, list):
        return value
    if not isinstance(value, dict):
        return None
    for key in ("messages", "loglines", "history", "requests"):
        inner = value.get(key)
        if isinstance(inner, list) and "role" not in value and "message" not in value:
            return inner
    return set_messages(value)


def _document_format(found: list[str], value: Any, hint: str | None) -> str | None:
    for preferred in _PREFERRED:
        if preferred in found:
            return preferred
    if found and not set(found) <= {"openai", "plain"}:
        return found[0]
    if found or (isinstance(value, dict) and "messages" in value and hint is None):
        # a document of chat messages is a chat request, even when each line alone is bare
        return hint or "openai"
    return hint if hint in ROLE_FORMATS else None


def fold_plain(formats: dict[str, int]) -> str | None:
    """A bare ``{role, content}`` line in an OpenAI or Anthropic file belongs to that file's
    format: alone it is indistinguishable, and reporting it apart only confuses. Returns the
    format it was folded into."""
    richer = [f for f in ("openai", "anthropic") if f in formats]
    if "plain" not in formats or not richer:
        return None
    target = max(richer, key=formats.__getitem__)
    formats[target] += formats.pop("plain")
    return target


__all__ = ["BY_NAME", "FORMATS", "read_transcript", "read_values"]
