"""Codex CLI's hook events (``hooks.json`` or ``[hooks]`` in ``config.toml``).

Codex sends Claude Code's JSON shape with its own fields: ``turn_id``, ``model``, and a
``transcript_path`` and ``last_assistant_message`` that may be null.

- ``SessionStart`` answers the ``memcli context`` block as ``additionalContext``.
- ``Stop`` queues the turn from the rollout file; without one, the last answer alone.
- ``PreCompact`` queues the turn under way before compaction.
"""

from __future__ import annotations

from memcli.hooks.core import HookCall, additional_context, context_text, queue_extraction

AGENT = "Codex CLI"
SILENT = ""


def handle(call: HookCall) -> str:
    event = call.event
    if event == "SessionStart":
        return additional_context("SessionStart", context_text(call))
    if event == "Stop":
        answer = call.text("last_assistant_message")
        queue_extraction(call, call.text("transcript_path"), last_message=answer,
                         messages=(("assistant", answer),) if answer else ())
        return SILENT
    if event == "PreCompact":
        queue_extraction(call, call.text("transcript_path"))
        return SILENT
    call.log(f"ignored a Codex {event!r} event: memcli handles SessionStart, Stop and "
             "PreCompact")
    return SILENT
