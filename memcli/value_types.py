"""Value types written out as slotted classes, for the ones every store command builds.

A dataclass compiles its methods from source each time its module is imported (about
0.4 ms a class, and the dataclasses module costs as much again to import): on every start of
lint, show and context, for a note, an index entry and a store's state. A :class:`Record`
is compiled into bytecode once, like any other code, and compares and prints as the
dataclass it replaced: equal when of the same class with equal fields, shown as
``Name(field=value, ...)``. A :class:`FrozenRecord` is hashable too; its fields are
``Final``, so the type checker refuses an assignment after ``__init__``.
:func:`memcli.json_values.to_json` encodes a record field by field, in order.

A subclass lists its fields in ``__match_args__`` (which also serves ``match`` patterns)
and in ``__slots__``, sets them in ``__init__``, and writes an explicit, typed ``replace``
where a copy with some fields changed is needed.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar


class Record:
    """A value whose fields are named by ``__match_args__``; see the module's docstring."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    # Fields a repr leaves out (bytes that would flood a test's failure message).
    _unshown: ClassVar[frozenset[str]] = frozenset()
    # The fields' values as one tuple (one C call, not a loop over the names).
    _values: ClassVar[Callable[[Any], tuple[object, ...]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        names = cls.__match_args__
        getter = attrgetter(*names) if len(names) > 1 else (
            lambda record: tuple(getattr(record, name) for name in names))
        cls._values = staticmethod(getter)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        values = type(self)._values
        return bool(values(self) == values(other))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__
                          if name not in self._unshown)
        return f"{type(self).__qualname__}({shown})"


class FrozenRecord(Record):
    """A record that is never changed once built, and so can be hashed."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(type(self)._values(self))
