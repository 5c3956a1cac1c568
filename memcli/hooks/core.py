"""What every agent's hook shares: the payload, the project's settings, the two actions.

An agent module maps its events onto two actions, :func:`context_text` (the ``memcli
context`` block, for the start of a session or a prompt) and :func:`queue_extraction`
(the turn that just ended, extracted in the background), and writes the answer in the
agent's own JSON; :class:`AgentEvents` answers the events that Claude Code, Codex and
Gemini CLI share under their own names. Whatever goes wrong is logged by the dispatcher,
never raised to the agent.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from memcli.hooks.log import BadPayload, log, not_a_file

if TYPE_CHECKING:
    from memcli.settings.config import Settings

MAX_PAYLOAD_BYTES = 32 * 1024 * 1024
# A session id names the session in the log, the history's source, a job's command line and
# the cursor file: agents use UUIDs and the like. One longer than this, or holding anything
# but letters, digits and `-_.:`, stands for itself by a digest (`sha256-…`), so that a 1 MB
# or control-laden id from a payload never reaches them as it is.
MAX_SESSION_ID_CHARS = 128


@dataclass(frozen=True)
class HookCall:
    """One hook run: the global flags, the process state the CLI passed down, the payload."""

    flags: Mapping[str, Any]
    env: Mapping[str, str]
    cwd: Path
    home: Path
    payload: Mapping[str, Any]
    # The event named on the command line (`memcli hook copilot agentStop`): Copilot CLI's
    # camelCase payloads do not name their event.
    named_event: str | None = None
    agent: str | None = None  # whose hook this is (claude-code, codex, gemini, copilot)
    # The hook's --extractor: the provider its jobs extract with (None: the settings').
    extractor: str | None = None

    @property
    def event(self) -> str | None:
        return self.named_event or self.text("hook_event_name")

    def text(self, key: str) -> str | None:
        """The payload's string under KEY; None when absent, null or not a string."""
        value = self.payload.get(key)
        return value if isinstance(value, str) else None

    @property
    def session(self) -> str:
        """The payload's session id ("" when none), bounded: see MAX_SESSION_ID_CHARS."""
        return session_id(self.text("session_id") or self.text("sessionId") or "")

    def log(self, message: str) -> None:
        log(self.home, message)


def session_id(raw: str) -> str:
    """RAW when it is a plain id of at most MAX_SESSION_ID_CHARS, else a digest of it."""
    if len(raw) <= MAX_SESSION_ID_CHARS and raw.isascii() and all(
            c.isalnum() or c in "-_.:" for c in raw):
        return raw
    import hashlib

    return "sha256-" + hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def read_payload(stream: IO[bytes], agent: str) -> dict[str, Any]:
    if stream.isatty():
        raise BadPayload(f"no hook payload on stdin (this command is run by {agent})")
    data = stream.read(MAX_PAYLOAD_BYTES + 1)
    if len(data) > MAX_PAYLOAD_BYTES:
        raise BadPayload(f"the hook payload is larger than {MAX_PAYLOAD_BYTES} bytes")
    try:
        payload = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadPayload(f"the hook payload is not JSON: {exc}; got {data[:200]!r}") from None
    except RecursionError:
        raise BadPayload(f"the hook payload is nested too deeply to read; got "
                         f"{data[:60]!r}") from None
    if not isinstance(payload, dict):
        raise BadPayload(f"the hook payload is not a JSON object; got {data[:200]!r}")
    return payload


def settings_for(call: HookCall) -> tuple[Settings, Path]:
    """Settings for the project the agent works in (the payload's cwd, else ours)."""
    from memcli.settings.resolve import Flags, resolve
    from memcli.settings.zone import Zone

    where = call.text("cwd")
    base = Path(where) if where and Path(where).is_dir() else call.cwd
    stores = {k: str(call.flags[k]) if call.flags.get(k) is not None else None
              for k in ("project_store", "user_store")}
    given = Flags(project_store=stores["project_store"], user_store=stores["user_store"])
    # The hook is an entry point like the CLI: the wall clock and the time zone enter here.
    zone = Zone(lambda seconds: time.localtime(seconds).tm_gmtoff)
    settings = resolve(given, call.env, base, clock=lambda: datetime.now(UTC), zone=zone)
    # The payload's cwd may be any folder: outside a git work tree, no store is made there.
    return settings.for_unattended(), base


def context_text(call: HookCall) -> str:
    """The ``memcli context`` block for the agent's project."""
    from memcli.commands.context import context
    from memcli.commands.review import waiting

    settings, _ = settings_for(call)
    text = context(settings).text
    # One line the agent can pass on: the person decides what it wanted to remember.
    count = sum(waiting(settings).values())
    if count:
        text += (f"\n{count} memor{'y awaits' if count == 1 else 'ies await'} the person's "
                 "review: tell them to run `memcli review`.\n")
    return text


def queue_extraction(call: HookCall, transcript_path: str | None, *,
                     last_message: str | None = None,
                     messages: tuple[tuple[str, str], ...] = ()) -> str:
    """Queue the extraction of the turn that just ended; the job's name.

    The turn is read from the transcript, as long as it was when the event fired; an agent
    that gives no transcript may hand over the turn's MESSAGES instead.
    """
    from memcli.hooks.queue import Turn, queue_turn

    session = call.session
    settings, base = settings_for(call)
    if not transcript_path:
        if not any(text.strip() for _, text in messages):
            raise BadPayload(f"the {call.event or 'end-of-turn'} payload has no transcript_path "
                             "and no message to extract")
        turn = Turn(session_id=session, transcript=None, size=0, last_assistant_message=None,
                    messages=messages, agent=call.agent, extractor=call.extractor)
        return queue_turn(turn, settings, base, call.env, call.home)
    transcript = Path(transcript_path).expanduser()
    if not transcript.is_absolute():
        transcript = base / transcript
    if (refused := not_a_file(transcript)) is not None:
        raise refused
    turn = Turn(session_id=session, transcript=transcript, size=transcript.stat().st_size,
                last_assistant_message=last_message, agent=call.agent, extractor=call.extractor)
    return queue_turn(turn, settings, base, call.env, call.home)


def prompt_context(call: HookCall, prompt: str | None) -> str | None:
    """Memory relevant to the prompt just submitted, for agents that can add it; None: nothing.

    ``memcli recall`` for the agent's project: the bodies of the relevant notes within the
    default budget, or None when no note is relevant enough.
    """
    if not prompt or not prompt.strip():
        return None
    from memcli.search.recall import recall

    settings, _ = settings_for(call)
    return recall(settings, prompt).text or None


def additional_context(event: str, text: str) -> str:
    """The answer Claude Code, Codex and Gemini CLI read extra context from."""
    output = {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
    return json.dumps(output) + "\n"


@dataclass(frozen=True)
class AgentEvents:
    """The events Claude Code, Codex and Gemini CLI answer alike, under each one's names:
    the context block at the start of a session, the memory relevant to a prompt, and the
    turn under way queued before a compaction. An agent's module handles its own events
    (the end of a turn, say) and hands the rest to :meth:`answer`."""

    label: str  # how the log names the agent's events ("" for Claude Code's)
    silent: str  # the agent's answer when there is nothing to say
    prompt: str  # the event with the person's ``prompt``
    compact: str  # the event before the conversation is summarised
    own: tuple[str, ...]  # the events the agent's module handles itself, for the log
    session_start: str = "SessionStart"

    def answer(self, call: HookCall) -> str:
        event = call.event
        if event == self.session_start:
            return additional_context(event, context_text(call))
        if event == self.prompt:
            found = prompt_context(call, call.text("prompt"))
            return additional_context(event, found) if found else self.silent
        if event == self.compact:
            queue_extraction(call, call.text("transcript_path"))
            return self.silent
        handled = (self.session_start, self.prompt, *self.own, self.compact)
        call.log(f"ignored a {self.label + ' ' if self.label else ''}{event!r} event: memcli "
                 f"handles {', '.join(handled[:-1])} and {handled[-1]}")
        return self.silent
