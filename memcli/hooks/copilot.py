"""GitHub Copilot CLI's hook events (``.github/hooks/*.json``, ``~/.copilot/hooks/*.json``).

Copilot CLI sends camelCase fields (``sessionId``, ``transcriptPath``) and no event name
when a hook is configured under a camelCase event (``agentStop``), and Claude Code's
snake_case shape under a PascalCase one (``Stop``); ``memcli hooks install`` names the
event on the command line, and both shapes are read.

- ``sessionStart`` answers the ``memcli context`` block as a top-level
  ``additionalContext`` (read since Copilot CLI 1.0.11).
- ``agentStop`` queues the turn that just ended; ``preCompact`` the turn under way.
- ``subagentStop``, ``sessionEnd`` and the rest are ignored.
"""

from __future__ import annotations

import json

from memcli.hooks.core import HookCall, context_text, queue_extraction

AGENT = "GitHub Copilot CLI"
SILENT = ""
_EVENTS = {"sessionStart": "sessionStart", "SessionStart": "sessionStart",
           "agentStop": "agentStop", "Stop": "agentStop",
           "preCompact": "preCompact", "PreCompact": "preCompact"}


def handle(call: HookCall) -> str:
    event = _EVENTS.get(call.event or "")
    transcript = call.text("transcriptPath") or call.text("transcript_path")
    if event == "sessionStart":
        return json.dumps({"additionalContext": context_text(call)}) + "\n"
    if event in ("agentStop", "preCompact"):
        if not transcript:
            call.log(f"ignored a Copilot {call.event!r} event without a transcript path")
            return SILENT
        queue_extraction(call, transcript)
        return SILENT
    call.log(f"ignored a Copilot {call.event!r} event: memcli handles sessionStart, "
             "agentStop and preCompact")
    return SILENT
