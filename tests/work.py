"""How much work a call does, counted instead of timed.

A test may not assert a wall-clock limit (a busy machine runs anything 5x slower; timings
belong in benchmarks/). What a test can assert is the amount of work: the number of
function calls, Python's and C's, made while ``fn`` runs, counted with ``sys.setprofile``.
The count does not depend on the machine's load, and an algorithm that rescans its input
from every position, or compares every pair, makes a number of calls that grows faster than
its input. (Work done inside one C call, such as a regex backtracking, is one call: the
regexes are checked by tests/test_redact.py's nested-quantifier test and timed by the
benchmarks.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")


def calls(fn: Callable[[], T]) -> tuple[T, int]:
    """``fn()`` and the number of calls made while it ran (in this thread)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if event == "call" or event == "c_call":
            count += 1

    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn()
    finally:
        sys.setprofile(previous)
    return result, count


def growth(fn: Callable[[int], object], small: int, factor: int = 4) -> float:
    """How many times more calls ``fn(small * factor)`` makes than ``fn(small)``: about
    ``factor`` for linear work, ``factor ** 2`` for quadratic."""
    _, few = calls(lambda: fn(small))
    _, many = calls(lambda: fn(small * factor))
    return many / max(1, few)
