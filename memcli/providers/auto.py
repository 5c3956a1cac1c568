"""`--provider auto`: the extractor a person already has, and why it was chosen.

In this order: an API key if one is set (MEMCLI_API_KEY or OPENAI_API_KEY: openai;
ANTHROPIC_API_KEY: anthropic); else the CLI of the agent whose hook queued the turn, when
it is on PATH; else a local OpenAI-compatible server that answers at its usual address;
else memcli's own rules, offline. The environment and the agent come in as arguments.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memcli.settings.provider_registry import AGENT_CLIS, OFFLINE, PROVIDERS

if TYPE_CHECKING:
    from memcli.settings.config import Settings


@dataclass(frozen=True)
class AutoChoice:
    provider: str
    reason: str
    base_url: str | None = None  # the local server found, for the ollama provider


def _on_path(env: Mapping[str, str]) -> Callable[[str], str | None]:
    return lambda name: shutil.which(name, path=env.get("PATH", os.defpath))


def probe_local(configured: str | None) -> tuple[str, str] | None:
    """The local server that answers (its name and URL): only CONFIGURED when one is."""
    from memcli.providers.local import LOCAL_SERVERS, answering_server

    # A base URL the person configured is where their server is: only it is asked.
    return answering_server(((configured, configured),) if configured else LOCAL_SERVERS)


def choose(env: Mapping[str, str], agent: str | None = None, base_url: str | None = None, *,
           which: Callable[[str], str | None] | None = None,
           probe: Callable[[str | None], tuple[str, str] | None] = probe_local) -> AutoChoice:
    """The extractor `auto` means with ENV, for the hook of AGENT (None: no hook), with the
    local server at BASE_URL if one is configured (else at the usual addresses)."""
    for name in ("openai", "anthropic"):
        variables = ("MEMCLI_API_KEY", *PROVIDERS[name].key_variables) if name == "openai" \
            else PROVIDERS[name].key_variables
        for variable in variables:
            if env.get(variable, "").strip():
                return AutoChoice(name, f"{variable} is set")
    find = which or _on_path(env)
    if agent in AGENT_CLIS:
        cli = AGENT_CLIS[agent]
        if find(cli.executable):
            return AutoChoice(agent, f"the {cli.label} hook runs it, and `{cli.executable}` "
                                     "is on PATH")
        missing = f"`{cli.executable}` is not on PATH; "
    else:
        missing = ""
    found = probe(base_url)
    if found is not None:
        name, url = found
        what = "the configured server" if name == url else name
        return AutoChoice("ollama", f"{missing}{what} answers at {url}", url)
    where = base_url or "its usual addresses"
    return AutoChoice(OFFLINE, f"{missing}no API key is set and no local model server "
                               f"answers at {where} (memcli's rules run offline)")


def resolve_auto(settings: Settings, agent: str | None) -> tuple[Settings, str]:
    """SETTINGS for the provider `auto` means here (its model, base URL and key), and why."""
    from memcli.settings.resolve import for_provider

    choice = choose(settings.env, agent, settings.base_url)
    return for_provider(settings, choice.provider, choice.base_url), choice.reason
