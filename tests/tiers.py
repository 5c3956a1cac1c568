"""Sharing a long list of cases between the two test tiers, none run twice.

A test that checks the same property at many places (cuts of a file, windows) can check a
quarter of them in the fast tier and the other three quarters in a test of the slow tier:
the whole suite (the README's command, CI) still checks every place, once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

T = TypeVar("T")


def share(cases: Iterable[T], fast: bool, every: int = 4) -> list[T]:
    """The fast tier's share of ``cases`` (the last one and every ``every``-th before it,
    counting back from the end, where the most telling cases are) or the rest."""
    found = list(cases)
    return [case for i, case in enumerate(found)
            if ((len(found) - 1 - i) % every == 0) == fast]


# Set by tests/conftest.py before any test module is imported: True when the run leaves
# the slow tier out (`-m "not slow"`).
FAST = False


def examples(count: int) -> int:
    """A hypothesis test's number of examples: ``count`` in the whole suite (the README's
    command, CI), a quarter of it (at least 25) in the fast tier. conftest gives the tests
    without a count of their own the same share of hypothesis's 100."""
    return max(25, count // 4) if FAST else count
