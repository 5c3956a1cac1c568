"""LLM providers: one streamed HTTP request per extraction (SPEC §7).

Importing this package stays cheap: httpx, httpx-sse and stamina load only when
``complete`` is called, because the CLI starts on every key press of a TAB completion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memcli.errors import ConfigError, MemcliError

if TYPE_CHECKING:
    import httpx

__all__ = [
    "OPERATIONS_SCHEMA",
    "PROVIDERS",
    "Completion",
    "Prompt",
    "ProviderSettings",
    "complete",
]

PROVIDERS = ("openai", "anthropic")

_ACTIONS = ["create", "update", "delete", "noop"]
_LEVELS = ["project", "user"]
_TYPES = ["user_preference", "correction_feedback", "project_knowledge", "reference_material"]

# Loose on purpose: only "action" is required and extra keys are allowed, because servers
# that turn a schema into a grammar (llama.cpp, Ollama, vLLM) reject or mangle the fancier
# keywords, and the strict check is memcli's own validator, operation by operation.
OPERATIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "operations": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "action": {"type": "string", "enum": _ACTIONS},
                    "level": {"type": "string", "enum": _LEVELS},
                    "type": {"type": "string", "enum": _TYPES},
                    "title": {"type": "string"},
                    "summary": {"type": "string"},
                    "slug": {"type": "string"},
                    "filename": {"type": "string"},
                    "content": {"type": "string"},
                    "reason": {"type": "string"},
                },
                "required": ["action"],
            },
        },
    },
    "required": ["operations"],
}


@dataclass(frozen=True)
class ProviderSettings:
    provider: str  # "openai" | "anthropic"
    model: str
    base_url: str  # ".../v1" for openai; "https://api.anthropic.com" for anthropic
    api_key: str | None
    timeout: float = 60.0  # seconds, per connect and per read
    max_attempts: int = 4  # total attempts per request, the first included
    max_retry_seconds: float = 60.0  # total time that waiting between attempts may take

    def __repr__(self) -> str:
        # The default repr would put the key into any log or traceback that shows settings.
        key = "None" if self.api_key is None else "'***'"
        return (
            f"ProviderSettings(provider={self.provider!r}, model={self.model!r}, "
            f"base_url={self.base_url!r}, api_key={key}, timeout={self.timeout!r}, "
            f"max_attempts={self.max_attempts!r}, max_retry_seconds={self.max_retry_seconds!r})"
        )


@dataclass(frozen=True)
class Prompt:
    system: str
    user: str


@dataclass
class Completion:
    text: str
    model: str
    input_tokens: int | None
    output_tokens: int | None
    attempts: int  # HTTP requests sent, retries and format fallbacks included
    json_mode: str  # "json_schema", "json_object", "none" (openai); "prefill", "none" (anthropic)


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
    one-line message that never holds the API key.
    """
    _check(settings)
    try:
        if settings.provider == "openai":
            from memcli.providers import openai

            return openai.complete(prompt, settings, transport=transport, on_progress=on_progress)
        from memcli.providers import anthropic

        return anthropic.complete(prompt, settings, transport=transport, on_progress=on_progress)
    except MemcliError as exc:
        # A proxy may echo the key back in its error body; scrub it in the one place all
        # messages pass through rather than trusting every formatter.
        message = str(exc)
        if settings.api_key and settings.api_key in message:
            raise type(exc)(message.replace(settings.api_key, "***")) from None
        raise


def _check(settings: ProviderSettings) -> None:
    if settings.provider not in PROVIDERS:
        raise ConfigError(f"unknown provider '{settings.provider}'; use {' or '.join(PROVIDERS)}")
    if not settings.model.strip():
        raise ConfigError(f"no model set for the {settings.provider} provider; pass --model")
    if not settings.base_url.strip():
        raise ConfigError(f"no base URL set for the {settings.provider} provider; pass --base-url")
    if not settings.base_url.strip().lower().startswith(("http://", "https://")):
        raise ConfigError(
            f"base URL '{settings.base_url}' must start with http:// or https://; fix --base-url"
        )
    if settings.provider == "anthropic" and not settings.api_key:
        raise ConfigError("ANTHROPIC_API_KEY is not set; the anthropic provider needs a key")
    if (
        settings.provider == "openai"
        and not settings.api_key
        and "api.openai.com" in settings.base_url.lower()
    ):
        # Local servers need no key, api.openai.com always does: fail before the request.
        raise ConfigError(f"OPENAI_API_KEY is not set; {settings.base_url} needs a key")
    if settings.timeout <= 0:
        raise ConfigError(f"timeout must be more than 0 seconds, not {settings.timeout}")
    if settings.max_attempts < 1:
        raise ConfigError(f"max_attempts must be at least 1, not {settings.max_attempts}")
    if settings.max_retry_seconds < 0:
        raise ConfigError(f"max_retry_seconds must be 0 or more, not {settings.max_retry_seconds}")
