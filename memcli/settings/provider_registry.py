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

__all__ = ["EXTRACTORS", "OFFLINE", "PROVIDERS", "ProviderSpec", "lookup"]


class ProviderSpec(FrozenRecord):
    """One row of the table: a provider's wire format, defaults and variables (a record:
    the table is read by every command, through :mod:`memcli.settings.config`)."""

    __slots__ = __match_args__ = ("name", "wire", "default_model", "default_base_url",
                                  "key_variables", "base_url_variables", "key_optional")
    name: Final[str]
    wire: Final[str]  # the module of memcli.providers that speaks this provider's wire format
    default_model: Final[str]
    default_base_url: Final[str]
    # Environment variables for the key (after MEMCLI_API_KEY), and for the base URL (after
    # MEMCLI_BASE_URL).
    key_variables: Final[tuple[str, ...]]
    base_url_variables: Final[tuple[str, ...]]
    key_optional: Final[bool]  # servers other than the default one (a local model) may need no key

    def __init__(self, *, name: str, wire: str, default_model: str, default_base_url: str,
                 key_variables: tuple[str, ...], base_url_variables: tuple[str, ...],
                 key_optional: bool) -> None:
        self.name = name
        self.wire = wire
        self.default_model = default_model
        self.default_base_url = default_base_url
        self.key_variables = key_variables
        self.base_url_variables = base_url_variables
        self.key_optional = key_optional

    @property
    def key_variable(self) -> str:
        """The variable a message tells the person to set."""
        return self.key_variables[0]


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
    )
}

OFFLINE = "rules"  # the extractor that needs no provider: memcli's own rules
EXTRACTORS = (OFFLINE, *PROVIDERS)


def lookup(name: str) -> ProviderSpec:
    """The provider called NAME; a one-line ConfigError for a name memcli does not know."""
    try:
        return PROVIDERS[name]
    except KeyError:
        raise ConfigError(
            f"unknown provider '{name}'; use {' or '.join(PROVIDERS)}"
        ) from None
