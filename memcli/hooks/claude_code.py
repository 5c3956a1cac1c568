"""Claude Code's hook events.

- ``SessionStart`` (``startup``, ``resume``, ``clear`` and ``compact``: after compaction
  the block is gone from the conversation, so it is given again) answers the ``memcli
  context`` block as ``additionalContext``.
- ``Stop`` queues the turn that just ended; ``last_assistant_message`` makes up for a
  transcript that lags behind the answer.
- ``PreCompact`` queues the turn under way before compaction summarises it away.
- ``SessionEnd`` leaves at once (Claude Code gives it about 1.5 s): the jobs of the session
  are already queued and their worker does not depend on Claude Code.
- Events from inside a subagent (``agent_id`` in the payload, ``SubagentStop``) are ignored:
  a subagent's work reaches the main transcript through its result.
"""

from __future__ import annotations

from memcli.hooks.core import HookCall, additional_context, context_text, queue_extraction

AGENT = "Claude Code"
SILENT = ""


def handle(call: HookCall) -> str:
    event = call.event
    if call.text("agent_id") or event in ("SubagentStop", "SubagentStart"):
        call.log(f"ignored a {event!r} event from a subagent")
        return SILENT
    if event == "Stop":
        queue_extraction(call, call.text("transcript_path"),
                         last_message=call.text("last_assistant_message"))
        return SILENT
    if event == "PreCompact":
        queue_extraction(call, call.text("transcript_path"))
        return SILENT
    if event == "SessionStart":
        return additional_context("SessionStart", context_text(call))
    if event == "SessionEnd":
        call.log(f"session {call.text('session_id') or '?'} ended "
                 f"({call.text('reason') or 'no reason given'})")
        return SILENT
    call.log(f"ignored a {event!r} event: memcli handles Stop, PreCompact, SessionStart "
             "and SessionEnd")
    return SILENT
