"""The person's time zone: which calendar day an instant falls on for them.

Timestamps are written in UTC, but "yesterday", "on Monday" and `expires: 2026-12-24` mean
the person's days. The entry point (the CLI, the hooks) finds the zone — ``TZ``, else the
system's — and hands it down as :class:`Zone`, a function from an instant to the zone's
offset then; nothing here reads the process's state. The offset is asked for each instant,
so a note written in winter falls on its winter day after the clocks changed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Final

from memcli.value_types import FrozenRecord

# Seconds east of UTC of the person's zone at a POSIX time.
Offset = Callable[[float], int]


def _utc_offset(_seconds: float) -> int:
    return 0


class Zone(FrozenRecord):
    """A time zone as an offset at each instant."""

    __slots__ = __match_args__ = ("offset",)
    offset: Final[Offset]

    def __init__(self, offset: Offset = _utc_offset) -> None:
        self.offset = offset

    def local(self, moment: dt.datetime) -> dt.datetime:
        """MOMENT (aware) as the person's wall time, with their zone's offset at that instant."""
        try:
            seconds = self.offset(moment.timestamp())
            return moment.astimezone(dt.timezone(dt.timedelta(seconds=seconds)))
        except (OverflowError, OSError, ValueError):
            # Outside what the platform's calendar knows (year 1, year 9999 ahead of UTC):
            # such a date is a typo, and its UTC day is as good as any.
            return moment

    def day_of(self, moment: dt.datetime) -> dt.date:
        """The person's calendar day at MOMENT (aware)."""
        return self.local(moment).date()

    def start_of(self, day: dt.date) -> dt.datetime:
        """The instant (in UTC) the person's DAY begins."""
        midnight = dt.datetime.combine(day, dt.time(), dt.UTC)
        try:
            # The offset at midnight, asked at the instant that offset gives (twice: the
            # guess can fall on the other side of a change).
            guess = midnight - dt.timedelta(seconds=self.offset(midnight.timestamp()))
            return midnight - dt.timedelta(seconds=self.offset(guess.timestamp()))
        except (OverflowError, OSError, ValueError):
            return midnight


UTC = Zone()


def parse_stamp(stamp: str) -> dt.datetime | dt.date | None:
    """A `created`/`updated` value: an instant when it has a time (UTC when it names no
    zone), a bare day when it has none, None when it is neither."""
    text = stamp.strip()
    try:
        if len(text) == 10:
            return dt.date.fromisoformat(text)
        moment = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)
