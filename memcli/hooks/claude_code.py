"""Claude Code's hook events.

- ``SessionStart`` (``startup``, ``resume``, ``clear`` and ``compact``, after which the
  context is gone from the conversation) answers the ``memcli context`` block as
  ``additionalContext``.
- ``Stop`` queues the turn that just ended; ``last_assistant_message`` makes up for a
  transcript that lags behind the answer.
"""

from __future__ import annotations

from memcli.hooks.core import HookCall, additional_context, context_text, queue_extraction

AGENT = "Claude Code"


def handle(call: HookCall) -> str:
    event = call.text("hook_event_name")
    if event == "Stop":
        queue_extraction(call, call.text("transcript_path"),
                         last_message=call.text("last_assistant_message"))
        return ""
    if event == "SessionStart":
        return additional_context("SessionStart", context_text(call))
    call.log(f"ignored a {event!r} event: memcli handles Stop and SessionStart")
    return ""
