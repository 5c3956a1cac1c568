"""Which format a record is written in: the first format whose own shape it has.

Order matters only where one format's shape contains another's (Qwen Code's envelope is
Claude-like; a Codex rollout line would pass for several): the more specific shape is
tried first. A record no format claims is unknown, counted by :func:`kind_of`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from memcli.transcripts.formats.aider import AIDER_TEXT
from memcli.transcripts.formats.antigravity import ANTIGRAVITY
from memcli.transcripts.formats.buddy import BUDDY
from memcli.transcripts.formats.claude import (
    CLAUDE_CODE,
    CLAUDE_LOGLINE,
    CLAUDE_META,
    CLAUDE_STREAM,
    settle_sidechains,
)
from memcli.transcripts.formats.claude_export import CLAUDE_EXPORT_TEXT
from memcli.transcripts.formats.cline import CLINE, CLINE_UI, task_as_text
from memcli.transcripts.formats.codex import CODEX, CODEX_EXEC, mark_subagent
from memcli.transcripts.formats.continue_dev import CONTINUE
from memcli.transcripts.formats.copilot import COPILOT
from memcli.transcripts.formats.copilot_chat import COPILOT_CHAT
from memcli.transcripts.formats.copilot_share import COPILOT_SHARE_TEXT
from memcli.transcripts.formats.cursor import CURSOR, CURSOR_STREAM
from memcli.transcripts.formats.cursor_export import CURSOR_EXPORT_TEXT
from memcli.transcripts.formats.droid import DROID_STREAM
from memcli.transcripts.formats.gemini import GEMINI, GEMINI_CONTENT
from memcli.transcripts.formats.gemini_api import GEMINI_API
from memcli.transcripts.formats.gemini_share import GEMINI_SHARE_TEXT
from memcli.transcripts.formats.gemini_stream import GEMINI_JSON, GEMINI_STREAM
from memcli.transcripts.formats.goose import GOOSE
from memcli.transcripts.formats.grok import GROK
from memcli.transcripts.formats.headless import drop_repeated_results, join_deltas
from memcli.transcripts.formats.kimi import KIMI_WIRE
from memcli.transcripts.formats.openai_api import CHAT_RESPONSE, RESPONSES
from memcli.transcripts.formats.opencode import OPENCODE, OPENCODE_EXPORT, OPENCODE_RUN
from memcli.transcripts.formats.openhands import OPENHANDS
from memcli.transcripts.formats.pi import PI
from memcli.transcripts.formats.qwen import QWEN
from memcli.transcripts.formats.qwenpaw import QWENPAW
from memcli.transcripts.formats.roles import ANTHROPIC, OPENAI, PLAIN, role_format
from memcli.transcripts.formats.sharegpt import SHAREGPT, SHAREGPT_TURN
from memcli.transcripts.formats.specstory import SPECSTORY_TEXT
from memcli.transcripts.model import Entry, Format, Record, TextFormat

DETECTION_ORDER: tuple[Format, ...] = (
    OPENCODE_RUN,  # its reasoning events would pass for a bare Codex item
    DROID_STREAM,  # its messages carry a sessionId and a role, like CodeBuddy's
    BUDDY,  # its items are a legacy Codex rollout's, with a sessionId
    CODEX,
    CODEX_EXEC,
    KIMI_WIRE,
    COPILOT,
    QWEN,
    CLAUDE_CODE,
    CURSOR_STREAM,  # shaped like Claude's print-mode output, without its keys
    CLAUDE_STREAM,
    CLAUDE_META,
    PI,
    ANTIGRAVITY,
    GROK,  # its user records would pass for Gemini CLI's
    GEMINI,
    GEMINI_STREAM,
    OPENCODE,
    OPENCODE_EXPORT,
    CURSOR,
    GEMINI_CONTENT,
    COPILOT_CHAT,
    CLINE_UI,
    CONTINUE,
    CLAUDE_LOGLINE,
    OPENHANDS,
    GOOSE,  # its messages are {role, content: [...]} too, with a "created" time
    GEMINI_JSON,
    GEMINI_API,
    CHAT_RESPONSE,
    RESPONSES,
    QWENPAW,  # a whole session in one document, under "agent"
    SHAREGPT,
    SHAREGPT_TURN,
    OPENAI,
    ANTHROPIC,
    PLAIN,
)

# Passes over the whole input a format needs once every record is read (in this order).
WholeInputPass = Callable[[list[Entry], Counter[str]], None]
WHOLE_INPUT_PASSES: tuple[WholeInputPass, ...] = (
    mark_subagent,  # Codex: a subagent's rollout
    settle_sidechains,  # Claude Code: a subagent's lines, and a subagent's own file
    drop_repeated_results,  # Claude Code and Cursor print mode: the closing result
    join_deltas,  # Gemini CLI's replies and Cursor's thinking, streamed in pieces
    task_as_text,  # Roo Code and Kilo Code: the task, written as the chat view's text
)

# One entry per name, for --format, the listing and docs (the first registration wins).
BY_NAME: dict[str, Format] = {}
# Formats that are not JSON, tried on the whole text before it is read as JSON.
TEXT_FORMATS: tuple[TextFormat, ...] = (
    SPECSTORY_TEXT,  # its stamp or a speaker's line is its own; the others look further
    AIDER_TEXT, CURSOR_EXPORT_TEXT, GEMINI_SHARE_TEXT, COPILOT_SHARE_TEXT, CLAUDE_EXPORT_TEXT)

# Listed under another reader's entry: Cline's chat view under Cline's, the API documents
# under OpenAI's messages and Gemini CLI's.
_LISTED_ELSEWHERE = (CLINE_UI, CHAT_RESPONSE, RESPONSES, GEMINI_API)
for _fmt in (*DETECTION_ORDER, CLINE, *(t.format for t in TEXT_FORMATS)):
    if _fmt not in _LISTED_ELSEWHERE:
        BY_NAME.setdefault(_fmt.name, _fmt)
FORMATS: tuple[str, ...] = tuple(BY_NAME)
ROLE_FORMATS = ("openai", "anthropic", "plain", "cline")


def text_format(text: str, forced_name: str | None) -> TextFormat | None:
    """The format of a text that is not JSON, if it has one's shape (and is that one's, when
    a format is forced)."""
    for candidate in TEXT_FORMATS:
        if forced_name in (None, candidate.format.name) and candidate.claims(text):
            return candidate
    return None


# A record with no key but these is a bare chat message: every format before the three role
# formats tests a key such a record lacks (a type, a message object, a session id, a clock),
# so they are not asked (tests/test_transcript_never_empty.py checks that the full scan
# agrees). The plainest logs are millions of such lines.
_BARE_KEYS = frozenset({"role", "content"})
_BY_ROLE_FORMAT: dict[str | None, Format | None] = {
    "openai": OPENAI, "anthropic": ANTHROPIC, "plain": PLAIN, None: None}


def detect(rec: Record) -> Format | None:
    if rec.keys() <= _BARE_KEYS:
        return _BY_ROLE_FORMAT[role_format(rec)]
    for fmt in DETECTION_ORDER:
        if fmt.matches(rec):
            return fmt
    return None


def forced(rec: Record, name: str) -> Format | None:
    """The forced format if the record can be read in it at all."""
    # A forced name covers every reader registered under it (Claude Code has three, and
    # Gemini CLI's print mode two): the one whose shape the record has, else the looser
    # test of the name's own entry.
    for candidate in DETECTION_ORDER:
        if candidate.name == name and candidate.matches(rec):
            return candidate
    fmt = BY_NAME[name]
    accepts = fmt.accepts or fmt.matches
    return fmt if accepts(rec) else None


# Shapes memcli knows and does not read, named so that the refusal says what the file is.
# claude-trace (badlogic/lemmy apps/claude-trace, interceptor.ts) logs every HTTP request to
# the Anthropic API with its response: each request repeats the whole conversation so far,
# and Claude Code's own session file, which claude-trace runs, holds it once.
# Muse Code's journal (`muse exec --json` and its session logs) is an event-sourced envelope
# per line (schema_version, stream, sequence, recorded_at, record_type, payload): the typed
# words and the streamed replies sit in payloads whose shapes no public description gives
# yet, so it is named rather than guessed at.
_MUSE_ENVELOPE = frozenset({"schema_version", "stream", "sequence", "recorded_at", "record_type"})
_NAMED_UNREAD: tuple[tuple[str, Callable[[dict[str, Any]], bool]], ...] = (
    ("claude-trace request/response log (read Claude Code's own session file instead)",
     lambda v: isinstance(v.get("request"), dict) and "response" in v and "logged_at" in v),
    ("Muse Code journal record (muse exec --json; not read yet)",
     lambda v: v.keys() >= _MUSE_ENVELOPE),
)


def kind_of(value: Any) -> str:
    """A short label for a record no format claims, for the skipped counts."""
    if isinstance(value, dict):
        for name, shaped in _NAMED_UNREAD:
            if shaped(value):
                return name
        kind = value.get("type")
        if isinstance(kind, str):
            return f"type={kind[:40]}"
        if isinstance(value.get("role"), str):
            return f"role={str(value['role'])[:40]}"
        keys = sorted(str(k)[:20] for k in value)[:4]
        return "object with keys " + ", ".join(keys) if keys else "empty object"
    names = {list: "JSON array", str: "JSON string", bool: "JSON boolean", type(None): "null"}
    return names.get(type(value), "JSON number")
