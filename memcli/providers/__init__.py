"""LLM providers: one streamed HTTP request per extraction.

Importing this package stays cheap: httpx, httpx-sse and stamina load only when
``complete`` is called, because the CLI starts on every key press of a TAB completion.
Which providers exist, and their defaults, is the table in :mod:`memcli.settings.provider_registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from memcli.errors import ConfigError, MemcliError
from memcli.settings.provider_registry import AGENT_CLIS, PROVIDERS, ProviderSpec, lookup

if TYPE_CHECKING:
    import httpx

    from memcli.operations.schema import operations_schema
    from memcli.providers._types import (
        MAX_OUTPUT_TOKENS,
        OPERATIONS_SCHEMA,
        Completion,
        Prompt,
        ProviderSettings,
    )
    from memcli.providers._wire import Wire

# The request and answer types load when first asked for: every store command imports the
# registry (through memcli.settings.resolve), and with it this package, but only extraction and
# consolidation talk to a provider (the types' dataclasses and schema cost ~1.5 ms).
_TYPES = frozenset({"MAX_OUTPUT_TOKENS", "OPERATIONS_SCHEMA", "Completion", "Prompt",
                    "ProviderSettings", "operations_schema"})


def __getattr__(name: str) -> Any:
    if name in _TYPES:
        from memcli.providers import _types

        return getattr(_types, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "MAX_OUTPUT_TOKENS",
    "OPERATIONS_SCHEMA",
    "PROVIDERS",
    "Completion",
    "Prompt",
    "ProviderSettings",
    "complete",
    "operations_schema",
]


def complete(
    prompt: Prompt,
    settings: ProviderSettings,
    *,
    transport: httpx.BaseTransport | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> Completion:
    """Send one extraction request and return the model's whole answer.

    ``on_progress`` gets the number of characters received so far (it starts again from
    zero when a request is retried). Raises ``ConfigError`` for settings that cannot work
    and ``ProviderError`` for everything the server or the network does; both carry a
    one-line message that never holds the API key. An agent CLI's provider runs that CLI
    once (:mod:`memcli.providers.agents`) instead of a request.
    """
    if settings.provider in AGENT_CLIS:
        from memcli.providers import agents

        return agents.complete(prompt, settings)
    spec = _check(settings)
    if spec.local and not settings.model.strip():
        from dataclasses import replace

        from memcli.providers.local import first_model

        settings = replace(settings, model=first_model(settings.base_url, settings.timeout,
                                                       transport))
    from memcli.providers import _wire

    try:
        return _wire.complete(prompt, settings, spec, _wire_format(spec),
                              transport=transport, on_progress=on_progress)
    except MemcliError as exc:
        # A proxy may echo the key back in its error body; scrub it in the one place all
        # messages pass through rather than trusting every formatter.
        message = str(exc)
        if settings.api_key and settings.api_key in message:
            raise type(exc)(message.replace(settings.api_key, "***")) from None
        raise


def _wire_format(spec: ProviderSpec) -> Wire:
    # Imported here, not at the top: each wire module imports httpx.
    if spec.wire == "anthropic":
        from memcli.providers import anthropic

        return anthropic.WIRE
    from memcli.providers import openai

    return openai.WIRE


def _check(settings: ProviderSettings) -> ProviderSpec:
    spec = lookup(settings.provider)
    base_url = settings.base_url.strip()
    if not settings.model.strip() and not spec.local:
        raise ConfigError(f"no model set for the {spec.name} provider; pass --model")
    if not base_url:
        raise ConfigError(f"no base URL set for the {spec.name} provider; pass --base-url")
    if not base_url.lower().startswith(("http://", "https://")):
        raise ConfigError(
            f"base URL '{settings.base_url}' must start with http:// or https://; fix --base-url"
        )
    if not settings.api_key and not spec.key_optional:
        raise ConfigError(f"{spec.key_variable} is not set; the {spec.name} provider needs a key")
    if not settings.api_key and not spec.local and _same_host(base_url, spec.default_base_url):
        # Local servers need no key, the provider's own always does: fail before the request.
        raise ConfigError(f"{spec.key_variable} is not set; {settings.base_url} needs a key")
    if settings.timeout <= 0:
        raise ConfigError(f"timeout must be more than 0 seconds, not {settings.timeout}")
    if settings.max_attempts < 1:
        raise ConfigError(f"max_attempts must be at least 1, not {settings.max_attempts}")
    if settings.max_retry_seconds < 0:
        raise ConfigError(f"max_retry_seconds must be 0 or more, not {settings.max_retry_seconds}")
    return spec


def _same_host(base_url: str, default_base_url: str) -> bool:
    host = default_base_url.split("://", 1)[-1].split("/", 1)[0].lower()
    return host in base_url.lower()
