"""Stand-ins for the agent CLIs: real executables on PATH that print the documented shapes.

``install(folder, "claude-code")`` writes ``folder/claude`` (``codex``, ``gemini``,
``copilot``): a Python script that records how it was called (argv, stdin, whether the
recursion marker was set) as one JSON line in ``$STANDIN_LOG``, then behaves as
``$STANDIN_MODE`` says:

- ``good``: the operations in ``$STANDIN_REPLY`` as the CLI's answer, in its JSON output;
- ``fenced``: the same answer inside a Markdown code fence, after a sentence;
- ``auth``, ``rate``, ``quota``: the error each CLI prints for it (its own words);
- ``slow``: sleeps 30 s before answering (past any --timeout a test gives);
- ``garbage``: prints text that is no JSON at all;
- ``hook``: first runs ``$STANDIN_HOOK`` (a shell command: an agent firing its own hooks
  the way ``claude -p`` does), then answers like ``good``.

The shapes follow the sources listed in docs/providers.md.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

EXECUTABLES = {"claude-code": "claude", "codex": "codex", "gemini": "gemini",
               "copilot": "copilot"}

REPLY = {"operations": [{
    "action": "create", "level": "project", "type": "project_knowledge",
    "title": "Tests run with uv", "summary": "The test command is uv run pytest -q.",
    "content": "Run the tests with `uv run pytest -q`, never with pip.",
    "reason": "the person said so"}]}

_SCRIPT = r'''#!{python}
import json, os, subprocess, sys, time

KIND = {kind!r}
mode = os.environ.get("STANDIN_MODE", "good")
data = sys.stdin.buffer.read().decode("utf-8", "replace") if KIND != "copilot" else ""
with open(os.environ["STANDIN_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({{"kind": KIND, "argv": sys.argv[1:], "stdin": data,
                          "marker": os.environ.get("MEMCLI_EXTRACTOR_CHILD"),
                          "cwd": os.getcwd(), "pid": os.getpid()}}) + "\n")
reply = os.environ.get("STANDIN_REPLY", "{{}}")
if mode == "hook":
    subprocess.run(os.environ["STANDIN_HOOK"], shell=True, input=os.environ.get(
        "STANDIN_HOOK_PAYLOAD", "{{}}").encode(), timeout=60)
    mode = "good"
if mode == "slow":
    # A child of its own too, as a CLI that started a helper: both must be stopped.
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    time.sleep(30)
if mode == "fenced":
    reply = "Here are the operations:\n```json\n" + reply + "\n```"
if mode == "garbage":
    print("Segmentation fault (core dumped) -- not JSON at all")
    sys.exit(0)
ERRORS = {{
    "claude-code": {{"auth": "Invalid API key \u00b7 Please run /login",
                    "rate": 'API Error: 429 {{"type":"error","error":{{"type":'
                            '"rate_limit_error","message":"This request would exceed your '
                            'account\'s rate limit. Please try again later."}}}}',
                    "quota": "Claude AI usage limit reached|1753077600"}},
    "codex": {{"auth": "unexpected status 401 Unauthorized: Missing bearer authentication "
                      "in header",
              "rate": "exceeded retry limit, last status: 429 Too Many Requests",
              "quota": "You've hit your usage limit. Upgrade to Pro or try again later."}},
    "gemini": {{"auth": "Please set an Auth method in your settings.json or specify "
                       "GEMINI_API_KEY",
               "rate": "Attempt 1 failed with status 429. Too Many Requests",
               "quota": "You have exhausted your capacity on this model. Your quota will "
                        "reset after 2h52m39s."}},
    "copilot": {{"auth": "No authentication information found. Please run /login",
                "rate": "Sorry, you have been rate-limited. Please wait a moment before "
                        "trying again. 429",
                "quota": "You have no premium requests left this month (quota exceeded)"}},
}}
error = ERRORS[KIND].get(mode)
if KIND == "claude-code":
    if error:
        print(json.dumps({{"type": "result", "subtype": "success", "is_error": True,
                          "duration_ms": 120, "num_turns": 1, "result": error,
                          "session_id": "6b0e", "total_cost_usd": 0, "usage": {{}}}}))
        sys.exit(1)
    print(json.dumps({{"type": "result", "subtype": "success", "is_error": False,
                      "duration_ms": 2310, "duration_api_ms": 2201, "num_turns": 1,
                      "result": reply, "session_id": "6b0e", "total_cost_usd": 0.00217,
                      "usage": {{"input_tokens": 1500, "cache_read_input_tokens": 200,
                                "output_tokens": 90}},
                      "modelUsage": {{"claude-haiku-4-5-20251001": {{"inputTokens": 1500}}}}}}))
elif KIND == "codex":
    print(json.dumps({{"type": "thread.started", "thread_id": "0199a213"}}))
    print(json.dumps({{"type": "turn.started"}}))
    if error:
        print(json.dumps({{"type": "error", "message": error}}))
        print(json.dumps({{"type": "turn.failed", "error": {{"message": error}}}}))
        sys.exit(1)
    print(json.dumps({{"type": "item.completed", "item": {{"id": "item_0", "type": "reasoning",
                                                         "text": "Thinking."}}}}))
    print(json.dumps({{"type": "item.completed", "item": {{"id": "item_1",
                                                         "type": "agent_message",
                                                         "text": reply}}}}))
    print(json.dumps({{"type": "turn.completed", "usage": {{"input_tokens": 2400,
                                                          "cached_input_tokens": 0,
                                                          "output_tokens": 75}}}}))
elif KIND == "gemini":
    if error:
        print(json.dumps({{"session_id": "b2b9", "error": {{"type": "Error", "message": error,
                                                           "code": 41 if mode == "auth" else 1}}}}))
        sys.exit(1)
    print(json.dumps({{"session_id": "b2b9", "response": reply, "stats": {{"models": {{
        "gemini-2.5-flash": {{"api": {{"totalRequests": 1}},
                             "tokens": {{"prompt": 1800, "candidates": 60, "total": 1860}}}}}}}}}}))
else:
    print(json.dumps({{"type": "session.start", "data": {{"sessionId": "c0"}}}}))
    if error:
        print(json.dumps({{"type": "session.error", "data": {{"message": error}}}}))
        sys.exit(1)
    print(json.dumps({{"type": "assistant.message", "data": {{"content": reply}}}}))
    print(json.dumps({{"type": "result", "usage": {{"premiumRequests": 1}}}}))
'''


def install(folder: Path, kind: str) -> Path:
    """Write the stand-in for KIND (a provider name) into FOLDER; its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / EXECUTABLES[kind]
    path.write_text(_SCRIPT.format(python=sys.executable, kind=kind), "utf-8")
    path.chmod(0o755)
    return path


def calls(log: Path) -> list[dict[str, object]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text("utf-8").splitlines() if line]


def environment(folder: Path, log: Path, mode: str = "good",
                reply: object = None) -> dict[str, str]:
    """PATH with FOLDER first, and the stand-in's settings."""
    return {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}",
            "STANDIN_LOG": str(log), "STANDIN_MODE": mode,
            "STANDIN_REPLY": json.dumps(REPLY if reply is None else reply)}
