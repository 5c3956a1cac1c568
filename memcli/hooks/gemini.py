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

from memcli.hooks.core import AgentEvents, HookCall, queue_extraction

AGENT = "Gemini CLI"
SILENT = "{}\n"
EVENTS = AgentEvents("Gemini CLI", SILENT, prompt="BeforeAgent", compact="PreCompress",
                     own=("AfterAgent",))


def handle(call: HookCall) -> str:
    if call.event == "AfterAgent":
        prompt, answer = call.text("prompt") or "", call.text("prompt_response") or ""
        queue_extraction(call, None, messages=(("user", prompt), ("assistant", answer)))
        return SILENT
    return EVENTS.answer(call)
