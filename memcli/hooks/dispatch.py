"""`memcli hook AGENT`: one payload in, the agent's answer out, never a failure."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any

from memcli.hooks import claude_code
from memcli.hooks.core import HookCall, read_payload
from memcli.hooks.log import log_failure, memcli_folder

Handler = Callable[[HookCall], str]
AGENTS: dict[str, tuple[str, Handler]] = {
    "claude-code": (claude_code.AGENT, claude_code.handle),
}


def run_hook(agent: str, flags: Mapping[str, Any], env: Mapping[str, str], cwd: Path,
             stdin: IO[bytes] | None = None) -> str:
    """Handle one hook payload of AGENT; the text to print on stdout. Never raises."""
    home = memcli_folder(env)
    try:
        display, handler = AGENTS[agent]
        payload = read_payload(stdin if stdin is not None else sys.stdin.buffer, display)
        return handler(HookCall(flags=flags, env=env, cwd=cwd, home=home, payload=payload))
    except BaseException as exc:  # fail open, whatever it was
        log_failure(home, exc)
        return ""


def run_claude_code_hook(flags: Mapping[str, Any], env: Mapping[str, str], cwd: Path,
                         stdin: IO[bytes] | None = None) -> str:
    return run_hook("claude-code", flags, env, cwd, stdin)
