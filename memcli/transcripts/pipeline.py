"""The steps from JSON values to a Transcript: records to entries (each record read as it
comes, and only what the later steps need kept of it), conversation order, what the flags
let in, the last turn, the size budgets."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from memcli.messages import Message, Role
from memcli.transcripts import order
from memcli.transcripts.content import blocks, text_pieces
from memcli.transcripts.detect import (
    ROLE_FORMATS,
    WHOLE_INPUT_PASSES,
    detect,
    forced,
    kind_of,
)
from memcli.transcripts.formats import cline, copilot_chat
from memcli.transcripts.formats.claude import SIDECHAIN
from memcli.transcripts.formats.codex import is_bare_item
from memcli.transcripts.formats.gemini import set_messages
from memcli.transcripts.model import (
    ORDER_KEYS,
    Entry,
    Format,
    Options,
    Piece,
    Record,
    Transcript,
)
from memcli.transcripts.select import (
    Sourced,
    apply_budgets,
    from_last_typed,
    left_out_because,
    valid_unicode,
    visible_pieces,
)


@dataclass
class Prepared:
    """Every record read into entries, echoes and retracted messages dropped; what is left
    is ordering and selection (:func:`finish`)."""

    collector: _Collector
    entries: list[Entry]
    dropped: Counter[str] = field(default_factory=Counter)
    # every record was a bare line of :data:`Bare` (none is then an entry): the read is
    # what :func:`finish` makes of their entries, made without them (:func:`read_prepared`)
    bare: list[Bare] | None = None


def prepare(values: Iterable[Any], opts: Options, fmt: str | None, *,
            replay: bool = True, whole_records: bool = False,
            bare_run: bool = False) -> Prepared:
    """Read ``values`` one at a time: none is kept once it is read. ``replay`` says that
    the first value is the input's first (a VS Code change log is told by it);
    ``whole_records`` keeps every record whole (what entries keep must not change a read).
    With ``bare_run``, an input of bare lines only is left as :attr:`Prepared.bare`, for
    :func:`read_prepared` (the plainest logs are millions of such lines)."""
    if replay and fmt in (None, "copilot-chat"):
        values = _replayed(values)  # a VS Code mutation log: its state
    collector = _Collector(fmt, opts, whole_records)
    for rec_no, value in enumerate(values):
        collector.add_record(value, rec_no)
    if bare_run and not (collector.mixed or whole_records):
        return Prepared(collector, collector.entries, bare=collector.pending)
    collector.flush()
    if fmt is None:
        collector.fold_responses()
    prepared = Prepared(collector, collector.entries)
    for settle in WHOLE_INPUT_PASSES:
        settle(prepared.entries, prepared.dropped)
    order.apply_gemini_rewinds(prepared.entries, prepared.dropped)
    order.keep_last_gemini_copy(prepared.entries)
    order.drop_echoes(prepared.entries, prepared.dropped)
    return prepared


def read_prepared(prepared: Prepared, opts: Options, fmt: str | None, *, broken: int = 0,
                  lines: int = 0, first_line: str = "") -> Transcript:
    """The Transcript of what :func:`prepare` read: ordered, selected and finished."""
    if prepared.bare is not None:
        return _bare_transcript(prepared, opts, broken, lines, first_line)
    return finish(prepared, ordered_pieces(prepared, opts), opts, fmt, broken=broken,
                  lines=lines, first_line=first_line)


def _bare_transcript(prepared: Prepared, opts: Options, broken: int, lines: int,
                     first_line: str) -> Transcript:
    """What :func:`finish` makes of bare lines' entries (one piece each, said by the person
    or the assistant, no stamp, the format ``plain``), made from their tuples: no pass over
    the whole input changes such entries, no flag leaves their pieces out, and no budget
    cuts them."""
    assert prepared.bare is not None
    shown = [(kind, said) for _, kind, text in prepared.bare if (said := text.strip())]
    if opts.last_turn:
        typed = [i for i, (kind, _) in enumerate(shown) if kind == "user"]
        if typed:
            prepared.dropped["before the last turn"] += typed[-1]
            shown = shown[typed[-1]:]
    collector = prepared.collector
    return Transcript(
        messages=[Message(role=kind, text=valid_unicode(said)) for kind, said in shown],
        records=collector.records,
        skipped=collector.records - len(prepared.bare),
        broken=broken,
        formats=collector.formats,
        truncated=0,
        message_formats=["plain"] * len(shown),
        unknown=dict(collector.unknown),
        dropped=dict(prepared.dropped),
        lines=lines,
        first_line=first_line,
        forced=None,
    )


def ordered_pieces(prepared: Prepared, opts: Options) -> list[Sourced]:
    ordered = order.conversation_order(prepared.entries, prepared.dropped)
    return visible_pieces(ordered, opts, prepared.dropped)


def finish(prepared: Prepared, pieces: list[Sourced], opts: Options, fmt: str | None, *,
           broken: int = 0, lines: int = 0, first_line: str = "") -> Transcript:
    collector, dropped = prepared.collector, prepared.dropped
    if opts.last_turn:
        pieces = from_last_typed(pieces, dropped)
    messages, formats, truncated = apply_budgets(pieces, opts)
    if fmt is None and (into := fold_plain(collector.formats)):
        formats = [into if f == "plain" else f for f in formats]
    with_messages = {e.rec_no for e in prepared.entries if e.pieces is not None}
    return Transcript(
        messages=messages,
        records=collector.records,
        skipped=collector.records - len(with_messages),
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


def _replayed(values: Iterable[Any]) -> Iterator[Any]:
    """``copilot_chat.replayed`` needs the whole log only when its first value says it is one."""
    rest = iter(values)
    first = next(rest, _NOTHING)
    if first is _NOTHING:
        return rest
    if copilot_chat.is_snapshot(first):
        return iter(copilot_chat.replayed([first, *rest]))
    return itertools.chain((first,), rest)


_NOTHING = object()


def _lightened(rec: Record, pieces: list[Piece] | None, opts: Options) -> Record:
    """What an entry keeps of its record: what the later steps read (a record's messages and
    tool results are most of a session, and its pieces hold what is shown of them), and of
    each piece the raw value only when it may be shown."""
    for piece in pieces or ():
        if piece.raw is None:
            continue
        if piece.expand is not None:
            if not (opts.include_tools or opts.include_injected):
                piece.raw = None
        elif left_out_because(piece, opts) not in (None, SIDECHAIN):
            # left out now is left out for good: later steps only mark more pieces injected
            # (but a subagent's own file gives its sidechain lines back, settle_sidechains)
            piece.raw = None
    kept = {key: rec[key] for key in ORDER_KEYS if key in rec}
    if rec.get("type") == "session_meta" and "payload" in rec:
        kept["payload"] = rec["payload"]  # a Codex rollout's header: whose session it is
    return kept


_PREFERRED = ("gemini", "claude-code", "codex", "cline", "anthropic")
# formats whose records are bare chat messages: a Cline history's lines have their shape
_ROLE_SHAPED = frozenset({"openai", "anthropic", "plain"})
_BARE_KEYS = frozenset({"role", "content"})
_BARE_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}
# A bare line as it is held until it is known whether the whole input is bare lines:
# (its record's number, who said it, its text), one piece of format "plain".
Bare = tuple[int, Role, str]


class _Collector:
    """Records to entries, counting each top-level record once under one format."""

    def __init__(self, forced_name: str | None, opts: Options, whole_records: bool) -> None:
        self.forced = forced_name
        self.opts = opts
        self.whole_records = whole_records
        self.records = 0
        self.entries: list[Entry] = []
        self.formats: dict[str, int] = {}
        self.unknown: Counter[str] = Counter()
        self.bare_responses = 0  # top-level OpenAI Responses messages ({"type": "message"})
        self.bare_items = 0  # Codex records that are bare Responses items (no envelope)
        # a Cline history written one message per line: its first user line has Cline's
        # markers, and from it on the role-shaped lines are Cline's (``cline.claims``)
        self.cline_lines = False
        # bare lines not yet made entries (:meth:`flush`); ``mixed`` once any record is not
        # one (entries come in the order of their records, so the held ones go first)
        self.pending: list[Bare] = []
        self.mixed = False

    def add_record(self, value: Any, rec_no: int) -> None:
        self.records += 1
        if self.forced is None and type(value) is dict and self._bare_line(value, rec_no):
            self.formats["plain"] = self.formats.get("plain", 0) + 1
            return
        self.flush()
        found = self._record(value, rec_no)
        if found is None:
            self.unknown[kind_of(value)] += 1
            return
        self.formats[found] = self.formats.get(found, 0) + 1
        if found == "openai" and isinstance(value, dict) and value.get("type") == "message":
            self.bare_responses += 1
        elif found == "codex" and is_bare_item(value):
            self.bare_items += 1

    def _bare_line(self, value: Record, rec_no: int) -> bool:
        """A ``{"role": "user"|"assistant", "content": "<text>"}`` line read straight into
        its entry: what detection, ``read_role_message`` and ``_lightened`` make of it,
        without their steps (the plainest logs are millions of such lines). Text that could
        hold a wrapper or a Cline marker takes the ordinary way."""
        content, role = value.get("content"), value.get("role")
        kind = _BARE_ROLES.get(role) if type(role) is str else None
        if (kind is None or type(content) is not str or not value.keys() <= _BARE_KEYS
                or self.cline_lines or "<" in content or "[" in content):
            return False
        if "#" in content or "This is the " in content:
            pieces = text_pieces(content, kind, None)  # may open with injected context
            if (self.whole_records or len(pieces) != 1 or pieces[0].injected
                    or pieces[0].text != content):
                self.flush()
                kept = value if self.whole_records else {}
                self.entries.append(Entry(len(self.entries), rec_no, "plain", kept, pieces))
                return True
        elif self.whole_records:
            self.entries.append(Entry(len(self.entries), rec_no, "plain", value,
                                      [Piece(kind, content, None)]))
            return True
        # what text_pieces gives text without wrappers: one piece, said as it is written
        self.pending.append((rec_no, kind, content))
        return True

    def flush(self) -> None:
        """The held bare lines as the entries they are (one piece each, nothing kept of
        their records); from the first record that is not one, every record is an entry."""
        self.mixed = True
        entries = self.entries
        for rec_no, kind, text in self.pending:
            entries.append(Entry(len(entries), rec_no, "plain", {}, [Piece(kind, text, None)]))
        self.pending.clear()

    def fold_responses(self) -> None:
        """Bare Responses items are the format of the file they are in. Grok CLI writes its
        reasoning as one, which alone is a legacy Codex rollout's item: when every Codex record
        of a Grok file is one, they are Grok's. A legacy Codex rollout writes its messages as
        bare Responses messages beside its other items: when every OpenAI record is one, they
        are that rollout's."""
        if "grok" in self.formats and self.formats.get("codex") == self.bare_items:
            self._fold("codex", "grok")
        if "codex" in self.formats and self.formats.get("openai") == self.bare_responses:
            self._fold("openai", "codex")

    def _fold(self, source: str, into: str) -> None:
        self.formats[into] += self.formats.pop(source)
        for entry in self.entries:
            if entry.fmt == source:
                entry.fmt = into

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
            kept = value if self.whole_records else _lightened(value, prompt, self.opts)
            self.entries.append(Entry(len(self.entries), rec_no, "anthropic", kept, prompt))
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
        kept = rec if self.whole_records else _lightened(rec, pieces, self.opts)
        self.entries.append(Entry(len(self.entries), rec_no, fmt.name, kept, pieces))
        return fmt.name

    def _format_of(self, rec: Record, hint: str | None) -> Format | None:
        if hint is not None:
            return forced(rec, hint)
        fmt = detect(rec)
        if fmt is not None and fmt.name in _ROLE_SHAPED and self._cline_line(rec):
            return cline.CLINE
        return fmt

    def _cline_line(self, rec: Record) -> bool:
        if not self.cline_lines and rec.get("role") == "user" and cline.claims([rec]):
            self.cline_lines = True
        return self.cline_lines


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
