"""Every LLM provider memcli knows, in one table: what `config`, `extract` and the wire
formats read when they need a provider's defaults.

Adding a provider that speaks an existing wire format is one entry here; a new wire format
is one module in this package (see ``openai.py``) plus its entry. Importing this module is
free (no HTTP stack), since configuration is resolved on every command.
"""

from __future__ import annotations

from typing import Final

from memcli.errors import ConfigError
from memcli.value_types import FrozenRecord

__all__ = ["AGENT_CLIS", "AUTO", "CHILD_MARKER", "EXTRACTORS", "OFFLINE", "PROVIDERS", "AgentCli",
           "ProviderSpec", "lookup"]


class ProviderSpec(FrozenRecord):
    """One row of the table: a provider's wire format, defaults and variables (a record:
    the table is read by every command, through :mod:`memcli.settings.resolve`)."""

    __slots__ = __match_args__ = ("name", "wire", "default_model", "default_base_url",
                                  "key_variables", "base_url_variables", "key_optional", "local")
    name: Final[str]
    wire: Final[str]  # the module of memcli.providers that speaks this provider's wire format
    default_model: Final[str]
    default_base_url: Final[str]
    # Environment variables for the key (after MEMCLI_API_KEY), and for the base URL (after
    # MEMCLI_BASE_URL).
    key_variables: Final[tuple[str, ...]]
    base_url_variables: Final[tuple[str, ...]]
    key_optional: Final[bool]  # servers other than the default one (a local model) may need no key
    # The default server is on this machine (Ollama): no key is needed there either, and an
    # empty model means "the first model the server lists".
    local: Final[bool]

    def __init__(self, *, name: str, wire: str, default_model: str, default_base_url: str,
                 key_variables: tuple[str, ...], base_url_variables: tuple[str, ...],
                 key_optional: bool, local: bool = False) -> None:
        self.name = name
        self.wire = wire
        self.default_model = default_model
        self.default_base_url = default_base_url
        self.key_variables = key_variables
        self.base_url_variables = base_url_variables
        self.key_optional = key_optional
        self.local = local

    @property
    def key_variable(self) -> str:
        """The variable a message tells the person to set."""
        return self.key_variables[0] if self.key_variables else "MEMCLI_API_KEY"


PROVIDERS: dict[str, ProviderSpec] = {
    spec.name: spec
    for spec in (
        ProviderSpec(
            name="openai", wire="openai", default_model="gpt-4o-mini",
            default_base_url="https://api.openai.com/v1", key_variables=("OPENAI_API_KEY",),
            base_url_variables=("OPENAI_BASE_URL",), key_optional=True,
        ),
        ProviderSpec(
            name="anthropic", wire="anthropic", default_model="claude-haiku-4-5",
            default_base_url="https://api.anthropic.com", key_variables=("ANTHROPIC_API_KEY",),
            base_url_variables=("ANTHROPIC_BASE_URL",), key_optional=False,
        ),
        # Any local OpenAI-compatible server: Ollama at its usual address by default; LM
        # Studio, llama.cpp's server and vLLM through --base-url (or found by `auto`).
        ProviderSpec(
            name="ollama", wire="openai", default_model="",
            default_base_url="http://127.0.0.1:11434/v1", key_variables=(),
            base_url_variables=(), key_optional=True, local=True,
        ),
    )
}


class AgentCli(FrozenRecord):
    """An agent's own command line, run headless as the extractor (memcli.providers.agents)."""

    __slots__ = __match_args__ = ("name", "executable", "label", "default_model", "login")
    name: Final[str]  # the provider's name, the same as the agent's in `memcli hook`
    executable: Final[str]
    label: Final[str]  # how messages name it
    default_model: Final[str]  # "" leaves the choice to the CLI's own configuration
    login: Final[str]  # what a person who is not signed in runs

    def __init__(self, name: str, executable: str, label: str, default_model: str,
                 login: str) -> None:
        self.name = name
        self.executable = executable
        self.label = label
        self.default_model = default_model
        self.login = login


# The small model where the CLI has one that every account may use: Claude Code's "haiku"
# alias and Gemini CLI's flash model. Codex and Copilot CLI offer different models by plan,
# so their own configured default is used unless --model says otherwise.
AGENT_CLIS: dict[str, AgentCli] = {
    agent.name: agent
    for agent in (
        AgentCli("claude-code", "claude", "Claude Code", "haiku",
                 "run `claude` once and sign in (/login)"),
        AgentCli("codex", "codex", "Codex CLI", "", "run `codex login`"),
        AgentCli("gemini", "gemini", "Gemini CLI", "gemini-2.5-flash",
                 "run `gemini` once and choose how to sign in"),
        AgentCli("copilot", "copilot", "GitHub Copilot CLI", "",
                 "run `copilot` once and sign in (/login)"),
    )
}

OFFLINE = "rules"  # the extractor that needs no provider: memcli's own rules
# An API key if one is set, else the CLI of the agent whose hook runs, else a local server
# that answers, else the rules (memcli.providers.auto).
AUTO = "auto"
EXTRACTORS = (OFFLINE, AUTO, *PROVIDERS, *AGENT_CLIS)
# Set in the environment of an agent CLI that memcli starts to extract: its own hooks run
# `memcli hook …`, which must then do nothing at all (no context, no job: no loop).
CHILD_MARKER = "MEMCLI_EXTRACTOR_CHILD"


def lookup(name: str) -> ProviderSpec:
    """The provider called NAME; a one-line ConfigError for a name memcli does not know."""
    try:
        return PROVIDERS[name]
    except KeyError:
        raise ConfigError(
            f"unknown provider '{name}'; use {', '.join(PROVIDERS)}"
        ) from None
