"""Codex CLI's hook events (``hooks.json`` or ``[hooks]`` in ``config.toml``).

Codex sends Claude Code's JSON shape with its own fields: ``turn_id``, ``model``, and a
``transcript_path`` and ``last_assistant_message`` that may be null.

- ``SessionStart`` answers the ``memcli context`` block as ``additionalContext``.
- ``UserPromptSubmit`` (Codex 0.117 and later; the ``prompt``) answers the notes relevant to
  it (``memcli recall``) as ``additionalContext``, and nothing when none is: Codex reads an
  empty answer as "nothing to add". A prompt Codex writes for one of its subagents
  (``agent_id`` in the payload) is not the person's and is left alone.
- ``Stop`` queues the turn from the rollout file; without one, the last answer alone.
- ``PreCompact`` queues the turn under way before compaction.
"""

from __future__ import annotations

from memcli.hooks.core import AgentEvents, HookCall, queue_extraction

AGENT = "Codex CLI"
SILENT = ""
EVENTS = AgentEvents("Codex", SILENT, prompt="UserPromptSubmit", compact="PreCompact",
                     own=("Stop",))


def handle(call: HookCall) -> str:
    event = call.event
    if event == "UserPromptSubmit" and call.text("agent_id"):
        call.log("ignored a Codex UserPromptSubmit from a subagent")
        return SILENT
    if event == "Stop":
        answer = call.text("last_assistant_message")
        queue_extraction(call, call.text("transcript_path"), last_message=answer,
                         messages=(("assistant", answer),) if answer else ())
        return SILENT
    return EVENTS.answer(call)
