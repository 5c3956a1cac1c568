"""How long one completion may take, and the retries inside that time.

``timeout`` is the deadline of the whole exchange: from the first connection to the last
byte of the answer, every retry, every wait between retries and every fallback request
included. :class:`Budget` keeps that deadline (on the monotonic timer, not the clock) and
the count of requests sent; :func:`with_retries` retries what may go away by itself (a 5xx,
a 429, a dropped connection) while time and attempts are left.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

import stamina

from memcli.errors import ProviderError
from memcli.providers._failures import Retryable
from memcli.providers._types import ProviderSettings

T = TypeVar("T")

BACKOFF_INITIAL = 0.5  # seconds before the first retry, before jitter
BACKOFF_MAX = 8.0  # no single exponential wait is longer than this


@dataclass
class Budget:
    """What one ``complete`` call has spent: requests sent, and since when."""

    settings: ProviderSettings
    started: float = field(default_factory=time.monotonic)
    attempts: int = 0

    def left(self) -> float:
        """Seconds until the deadline (``timeout`` after the start); 0 or less once it passed."""
        return self.settings.timeout - (time.monotonic() - self.started)

    def passed(self) -> bool:
        return self.left() <= 0

    def wait_left(self) -> float:
        """Seconds that waiting before a retry may still take: the deadline caps it too."""
        retry_left = self.settings.max_retry_seconds - (time.monotonic() - self.started)
        return min(retry_left, self.left())

    def deadline_error(self, cause: str | None = None) -> ProviderError:
        settings = self.settings
        times = "attempt" if self.attempts == 1 else "attempts"
        last = f"; last error: {cause}" if cause else ""
        return ProviderError(
            f"{settings.provider} at {settings.base_url} gave no complete answer within the "
            f"{settings.timeout:g} s timeout ({self.attempts} {times}){last}; raise --timeout "
            "for a slow model"
        )


def backoff_wait(
    retry_number: int,
    retry_after: float | None,
    remaining: float,
    rand: Callable[[], float] = random.random,
) -> float | None:
    """Seconds to wait before retry ``retry_number`` (1-based); None means give up now.

    A server's ``Retry-After`` is obeyed exactly, and when it reaches past the time left
    in the budget we give up at once instead of sleeping only to be turned away again.
    """
    if remaining <= 0:
        return None
    if retry_after is not None:
        return retry_after if retry_after <= remaining else None
    ceiling = min(BACKOFF_MAX, BACKOFF_INITIAL * 2.0 ** (retry_number - 1))
    # "Equal jitter": at least half the exponential step, so retries still spread out
    # when many agents hit the same rate limit at once.
    return min(ceiling / 2 + rand() * ceiling / 2, remaining)


def with_retries(budget: Budget, send: Callable[[], T]) -> T:
    """Call ``send`` until it returns, retrying on ``Retryable`` within the budget.

    stamina runs the loop (and ``stamina.set_testing`` turns the waits off in tests); the
    hook below decides each wait so that ``Retry-After``, the deadline and the wait budget
    are honoured.
    """
    settings = budget.settings
    _quiet_stamina_logger()
    first_attempt = budget.attempts
    gave_up: list[str] = []

    def hook(exc: BaseException) -> bool | float:
        if not isinstance(exc, Retryable):
            return False
        made = budget.attempts - first_attempt
        if made >= settings.max_attempts or budget.passed():
            return False
        wait = backoff_wait(made, exc.retry_after, budget.wait_left())
        if wait is None:
            gave_up.append(_why_not(budget, exc))
            return False
        return wait

    try:
        for attempt in stamina.retry_context(on=hook, attempts=settings.max_attempts, timeout=None):
            with attempt:
                if budget.passed():
                    raise budget.deadline_error()
                budget.attempts += 1
                return send()
    except Retryable as exc:
        if budget.passed():
            raise budget.deadline_error(exc.cause) from None
        made = budget.attempts - first_attempt
        times = "attempt" if made == 1 else "attempts"
        why = f" ({gave_up[-1]})" if gave_up else ""
        raise ProviderError(
            f"{settings.provider} request to {settings.base_url} gave up after {made} "
            f"{times}{why}; last error: {exc.cause}"
        ) from None
    raise AssertionError("stamina ended its retry loop without a result or an error")


def _why_not(budget: Budget, exc: Retryable) -> str:
    """Why no retry follows ``exc`` although attempts are left: a limit on time."""
    settings = budget.settings
    left, wait_left = budget.left(), budget.wait_left()
    limit = (f"before the {settings.timeout:g} s timeout" if wait_left >= left - 0.001
             else f"of the {settings.max_retry_seconds:g} s retry budget")
    if exc.retry_after is not None:
        return (f"the server asked to wait {exc.retry_after:.0f} s, more than the "
                f"{max(wait_left, 0):.0f} s left {limit}")
    return f"no time left {limit}"


def _quiet_stamina_logger() -> None:
    # stamina logs each scheduled retry at WARNING; with logging unconfigured, Python's
    # last-resort handler would print "stamina.retry_scheduled" onto the CLI's stderr. A
    # NullHandler stops that, and an application that configures logging still gets them.
    logger = logging.getLogger("stamina")
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())
