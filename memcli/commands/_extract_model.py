"""`memcli extract`'s side of a model: the settings a provider is sent, and the operations
read from its answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memcli.errors import ConfigError, ProviderError
from memcli.settings.config import Settings

if TYPE_CHECKING:
    from memcli.providers import ProviderSettings


def provider_settings(settings: Settings, provider: str) -> ProviderSettings:
    """What the provider is sent: the settings as resolved, the registry's defaults in them."""
    from memcli.providers import ProviderSettings
    from memcli.settings.provider_registry import AGENT_CLIS, lookup

    where = str(settings.cwd) if settings.cwd is not None else None
    if provider in AGENT_CLIS:
        return ProviderSettings(provider=provider, model=settings.model or "", base_url="",
                                api_key=None, timeout=settings.timeout, env=settings.env,
                                cwd=where)
    spec = lookup(provider)
    base_url = settings.base_url or spec.default_base_url
    if settings.api_key is None and base_url == spec.default_base_url and not spec.local:
        raise ConfigError(f"{provider} needs an API key: set {spec.key_variable}, or point "
                          "--base-url at a local server")
    return ProviderSettings(provider=provider, model=settings.model or spec.default_model,
                            base_url=base_url, api_key=settings.api_key,
                            timeout=settings.timeout)


def parse_answer(text: str, json_mode: str) -> list[Any]:
    """The operations of an answer. A model that ignored the prefill and wrote prose and a
    bare array has an answer of its own after the prefill: that is read when the two
    together do not parse."""
    from memcli.operations.reply import parse_reply
    from memcli.providers.anthropic import PREFILL

    try:
        return parse_reply(text)
    except ProviderError as first:
        if json_mode != "prefill" or not text.startswith(PREFILL):
            raise
        try:
            return parse_reply(text[len(PREFILL):])
        except ProviderError:
            raise first from None
