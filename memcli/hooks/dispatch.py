"""`memcli hook AGENT [EVENT]`: one payload in, the agent's answer out, never a failure."""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from memcli.hooks import claude_code, codex, copilot, gemini
from memcli.hooks.core import HookCall, read_payload
from memcli.hooks.log import log_failure, memcli_folder
from memcli.settings.provider_registry import CHILD_MARKER


@dataclass(frozen=True)
class Agent:
    name: str
    handle: Callable[[HookCall], str]
    # What the hook prints when it has nothing to say or something went wrong.
    silent: str


AGENTS: dict[str, Agent] = {
    "claude-code": Agent(claude_code.AGENT, claude_code.handle, claude_code.SILENT),
    "codex": Agent(codex.AGENT, codex.handle, codex.SILENT),
    "gemini": Agent(gemini.AGENT, gemini.handle, gemini.SILENT),
    "copilot": Agent(copilot.AGENT, copilot.handle, copilot.SILENT),
}


def run_hook(agent: str, flags: Mapping[str, Any], env: Mapping[str, str], cwd: Path,
             stdin: IO[bytes] | None = None, event: str | None = None,
             extractor: str | None = None) -> str:
    """Handle one hook payload of AGENT; the text to print on stdout. Never raises.

    EXTRACTOR is the hook's ``--extractor`` (the provider its jobs extract with). In an
    agent CLI that memcli started to extract (its environment holds CHILD_MARKER) the hook
    does nothing at all, at once: no context for that session, no job for its turn, so an
    extraction never starts another.
    """
    known = AGENTS.get(agent)
    if env.get(CHILD_MARKER):
        return known.silent if known is not None else ""
    home = memcli_folder(env)
    try:
        if known is None:
            raise ValueError(f"no hook for agent {agent!r}; known: {', '.join(AGENTS)}")
        payload = read_payload(stdin if stdin is not None else sys.stdin.buffer, known.name)
        call = HookCall(flags=flags, env=env, cwd=cwd, home=home, payload=payload,
                        named_event=event, agent=agent, extractor=extractor)
        return known.handle(call)
    except BaseException as exc:  # fail open, whatever it was
        log_failure(home, exc, f"{agent} hook")
        return known.silent if known is not None else ""


def run_claude_code_hook(flags: Mapping[str, Any], env: Mapping[str, str], cwd: Path,
                         stdin: IO[bytes] | None = None) -> str:
    return run_hook("claude-code", flags, env, cwd, stdin)
