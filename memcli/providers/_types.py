"""The values that cross the providers' boundary: settings in, a completion out.

Kept apart from the package's ``__init__`` so that the wire-format modules can use them
without importing the package that dispatches to them (no import cycle).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memcli.operations.schema import operations_schema

# Every request caps the answer here: 25 operations fit; a model running away is cut off at
# this, not at its own (often much larger) limit.
MAX_OUTPUT_TOKENS = 4096

# The shape of the answer servers that constrain their output are sent: derived from the
# operations' one definition (memcli.operations.schema).
OPERATIONS_SCHEMA: dict[str, Any] = operations_schema()


@dataclass(frozen=True)
class ProviderSettings:
    provider: str  # a name of memcli.settings.provider_registry: PROVIDERS or AGENT_CLIS
    model: str  # "" for an agent CLI: its own configured model
    base_url: str  # ".../v1" for openai; "https://api.anthropic.com" for anthropic
    api_key: str | None
    timeout: float = 60.0  # seconds: the deadline of the whole exchange, retries included
    max_attempts: int = 4  # total attempts per request, the first included
    max_retry_seconds: float = 60.0  # total time that waiting between attempts may take
    # For an agent CLI: the environment it runs in (its PATH, its sign-in) and the folder it
    # starts in. Passed down from the entry point, never read here.
    env: Mapping[str, str] = field(default_factory=dict, compare=False)
    cwd: str | None = None

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
    # The shape of the answer, for servers that constrain their output to a JSON schema.
    schema: dict[str, Any] = field(default_factory=lambda: OPERATIONS_SCHEMA, hash=False)


@dataclass
class Completion:
    text: str
    model: str
    input_tokens: int | None
    output_tokens: int | None
    attempts: int  # HTTP requests sent, retries and format fallbacks included
    # How JSON was asked for: "json_schema", "json_object" or "none" (openai); "json_schema"
    # (structured outputs), "prefill" or "none" (anthropic).
    json_mode: str
    cut_off: bool = False  # the model stopped at MAX_OUTPUT_TOKENS: the answer may be partial
    cost_usd: float | None = None  # what the agent CLI said the call cost, when it says
