"""Claude Code's hook events.

- ``SessionStart`` (``startup``, ``resume``, ``clear`` and ``compact``: after compaction
  the block is gone from the conversation, so it is given again) answers the ``memcli
  context`` block as ``additionalContext``.
- ``UserPromptSubmit`` answers the notes relevant to the ``prompt`` (``memcli recall``) as
  ``additionalContext``, and nothing when no note is relevant enough.
- ``Stop`` queues the turn that just ended; ``last_assistant_message`` makes up for a
  transcript that lags behind the answer.
- ``PreCompact`` queues the turn under way before compaction summarises it away.
- ``SessionEnd`` (Claude Code gives it about 1.5 s) queues the session's last turn when no
  ``Stop`` did (a turn the person interrupted), and leaves: the worker does not depend on
  Claude Code.
- Events from inside a subagent (``agent_id`` in the payload, ``SubagentStop``) are ignored:
  a subagent's work reaches the main transcript through its result.
"""

from __future__ import annotations

from pathlib import Path

from memcli.hooks.core import AgentEvents, HookCall, queue_extraction

AGENT = "Claude Code"
SILENT = ""
EVENTS = AgentEvents("", SILENT, prompt="UserPromptSubmit", compact="PreCompact",
                     own=("Stop", "SessionEnd"))


def handle(call: HookCall) -> str:
    event = call.event
    if call.text("agent_id") or event in ("SubagentStop", "SubagentStart"):
        call.log(f"ignored a {event!r} event from a subagent")
        return SILENT
    if event == "Stop":
        queue_extraction(call, call.text("transcript_path"),
                         last_message=call.text("last_assistant_message"))
        return SILENT
    if event == "SessionEnd":
        _session_end(call)
        return SILENT
    return EVENTS.answer(call)


def _session_end(call: HookCall) -> None:
    from memcli.hooks.core import settings_for
    from memcli.hooks.queue import queue_dir
    from memcli.hooks.sessions import forget, last_queued, new_prompt_since

    session = call.session
    call.log(f"session {session or '?'} ended ({call.text('reason') or 'no reason given'})")
    transcript = call.text("transcript_path")
    if not session or not transcript:
        return
    queue = queue_dir(settings_for(call)[0])
    start = last_queued(queue, session)
    path = Path(transcript).expanduser()
    if path.is_file() and path.stat().st_size > start and new_prompt_since(path, start):
        call.log(f"session {session}: its last turn had no Stop; queued at session end")
        queue_extraction(call, transcript)
    forget(queue, session)
