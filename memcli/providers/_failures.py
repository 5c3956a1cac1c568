"""What a failed request means: retry it, step down a fallback, or tell the person.

A status or a stream error becomes :class:`Retryable` (another identical request may not
meet it), :class:`StatusFailure` (it will; the wire format may step down a fallback, else
it is worded for the person), or a ``ProviderError``. Messages quote the server's own
words, folded onto one line and cut short.
"""

from __future__ import annotations

import email.utils
import json
import math
from typing import Any

import httpx

from memcli.errors import ProviderError
from memcli.text import clip, one_line

RETRY_STATUSES = frozenset({408, 429, *range(500, 600)})
ERROR_BODY_LIMIT = 64 * 1024  # an error page is read this far, never further
MESSAGE_LIMIT = 240  # characters of a server's message that go into ours


class Retryable(Exception):
    """A failure that another identical request may not have: a 5xx, a drop, a timeout."""

    def __init__(self, cause: str, retry_after: float | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.retry_after = retry_after


class StatusFailure(Exception):
    """An HTTP status that retrying will not change; the provider words the message."""

    def __init__(self, status: int, message: str, body: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status
        self.message = message
        self.body = body


def brief(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """A server's text fit for one line of a message: whitespace folded, cut to LIMIT."""
    return clip(one_line(text), limit)


def server_message(body: str) -> str:
    """The human part of an error body: OpenAI, Anthropic, Ollama and FastAPI shapes."""
    try:
        data = json.loads(body)
    except ValueError:
        return brief(body) or "(empty body)"
    found = find_message(data)
    return brief(found if found else body) or "(empty body)"


def find_message(data: Any) -> str | None:
    if isinstance(data, str):
        return data
    if isinstance(data, list):
        # FastAPI's 422 "detail" is a list of problems; the first says enough.
        return find_message(data[0]) if data else None
    if not isinstance(data, dict):
        return None
    for key in ("error", "message", "detail", "msg"):
        if key in data:
            found = find_message(data[key])
            if found:
                return found
    return None


def mentions(failure: StatusFailure, *words: str) -> bool:
    body = failure.body.lower()
    return any(word in body for word in words)


# Error types and codes that a stream may report after its HTTP 200 and that a new
# request may not meet again (Anthropic's names, OpenAI's and OpenRouter's).
_TRANSIENT_ERROR_TYPES = frozenset(
    {"overloaded_error", "api_error", "rate_limit_error", "timeout_error", "server_error"}
)


def stream_error(error: Any) -> Exception:
    """The exception for an error that arrived inside a stream (after HTTP 200)."""
    message = brief(find_message(error) or json.dumps(error, ensure_ascii=False))
    kind = code = None
    if isinstance(error, dict):
        kind, code = error.get("type"), error.get("code")
    if isinstance(code, str) and code.isdigit():
        code = int(code)
    if kind in _TRANSIENT_ERROR_TYPES or code in RETRY_STATUSES:
        return Retryable(f"the server reported an error mid-stream: {message}")
    return ProviderError(f"the server reported an error mid-stream: {message}")


def status_failure(response: httpx.Response) -> Exception:
    """The exception for a response whose status is not 2xx; its body is read to 64 KiB."""
    raw = b""
    for chunk in response.iter_bytes():
        raw += chunk
        if len(raw) >= ERROR_BODY_LIMIT:
            break
    body = raw[:ERROR_BODY_LIMIT].decode("utf-8", "replace")
    status = response.status_code
    message = server_message(body)
    if status in RETRY_STATUSES and not _quota_exhausted(body):
        return Retryable(f"HTTP {status}: {message}", retry_after_seconds(response.headers))
    return StatusFailure(status, message, body)


def retry_after_seconds(headers: httpx.Headers, now: float | None = None) -> float | None:
    """The delay a server asked for, in seconds; None when it asked for none we can read.

    A date is measured against ``now``, else against the response's own ``Date`` header:
    the server's clock is the one its date was written by, and memcli reads no clock here.
    """
    # OpenAI sends the precise value in milliseconds next to the rounded standard header.
    millis = headers.get("retry-after-ms")
    if millis is not None:
        try:
            value = float(millis) / 1000
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value >= 0:
            return value
    raw = headers.get("retry-after")
    if raw is None:
        return None
    raw = raw.strip()
    try:
        value = float(raw)
    except ValueError:
        pass
    else:
        return value if math.isfinite(value) and value >= 0 else None
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    if now is None:
        now = _sent_at(headers)
        if now is None:
            return None
    return max(0.0, when.timestamp() - now)


def _sent_at(headers: httpx.Headers) -> float | None:
    try:
        sent = email.utils.parsedate_to_datetime(headers.get("date", ""))
    except (TypeError, ValueError, IndexError):
        return None
    return sent.timestamp() if sent.tzinfo is not None else None


def _quota_exhausted(body: str) -> bool:
    # OpenAI answers 429 both for "slow down" and for "no credit left"; only the first
    # goes away by waiting.
    return "insufficient_quota" in body
