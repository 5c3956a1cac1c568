"""Gemini CLI's hook events (``hooks`` in ``.gemini/settings.json``).

Gemini CLI parses everything a hook prints as JSON, so every answer, an empty one
included, is a JSON object.

- ``SessionStart`` answers the ``memcli context`` block as ``additionalContext``.
- ``BeforeAgent`` (the person's ``prompt``) answers the memory relevant to it, if any.
- ``AfterAgent`` hands over the turn itself (``prompt`` and ``prompt_response``), which is
  queued as it is: no transcript to read, nothing lagging behind.
- ``PreCompress`` queues the last turn of the transcript before it is summarised.
- ``SessionEnd`` is ignored: Gemini CLI does not wait for it, and the turns are queued.
"""

from __future__ import annotations

from memcli.hooks.core import (
    HookCall,
    additional_context,
    context_text,
    prompt_context,
    queue_extraction,
)

AGENT = "Gemini CLI"
SILENT = "{}\n"


def handle(call: HookCall) -> str:
    event = call.event
    if event == "SessionStart":
        return additional_context("SessionStart", context_text(call))
    if event == "BeforeAgent":
        found = prompt_context(call, call.text("prompt"))
        return additional_context("BeforeAgent", found) if found else SILENT
    if event == "AfterAgent":
        prompt, answer = call.text("prompt") or "", call.text("prompt_response") or ""
        queue_extraction(call, None, messages=(("user", prompt), ("assistant", answer)))
        return SILENT
    if event == "PreCompress":
        queue_extraction(call, call.text("transcript_path"))
        return SILENT
    call.log(f"ignored a Gemini CLI {event!r} event: memcli handles SessionStart, "
             "BeforeAgent, AfterAgent and PreCompress")
    return SILENT
