"""Regular expressions compiled once, kept between runs as the program `re` makes of them.

A one-turn `extract --provider rules` compiles the 150 or so patterns a turn reaches on
every start: parsing a pattern and generating its program is Python code in `re`, about a
quarter of the turn's CPU. What `re` hands the regular expression engine in the end is a
list of numbers and the pattern's groups (``_sre.compile``'s arguments); this module keeps
those, by pattern and flags, in one marshal file (``<memcli home>/cache/regex/``), and on
the next start hands them to the engine again without parsing, as a ``.pyc`` spares
compiling a module. The engine checks each program it is given (``_sre`` validates the
code), the file is stamped with the interpreter's exact version and the engine's magic
number, and any failure (another Python, an older file, a private API that changed) falls
back to :func:`re.compile`: the pattern object is the one :func:`re.compile` makes either
way, so what matches never depends on the cache.

The cache is off until the command line turns it on (:func:`use`): process state (memcli's
home) enters at the command line only; a library caller compiles as usual.
"""

from __future__ import annotations

import _sre  # type: ignore[import-not-found]  # re's engine, loaded with re
import contextlib
import hashlib
import marshal
import os
import re
import sys
from pathlib import Path
from typing import Any, ClassVar

# The cache holds memcli's own patterns (a few hundred); one built from a person's text
# would make it grow without end, so past this many nothing new is kept.
_MAX_PROGRAMS = 2_000

_Program = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


class _State:
    file: Path | None = None
    programs: ClassVar[dict[tuple[str, int], _Program]] = {}
    added = False


def _stamp() -> str:
    """The interpreter and the engine whose programs the file holds."""
    magic = getattr(_sre, "MAGIC", None)
    codesize = getattr(_sre, "CODESIZE", None)
    return f"{sys.implementation.name} {sys.version} {magic} {codesize}"


def use(folder: Path) -> None:
    """Keep the programs in FOLDER (read now, written by :func:`save`)."""
    stamp = _stamp()
    name = hashlib.sha256(stamp.encode()).hexdigest()[:16] + ".marshal"
    _State.file, _State.programs, _State.added = folder / name, {}, False
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        value = marshal.loads((folder / name).read_bytes())
        if type(value) is tuple and len(value) == 2 and value[0] == stamp and (
                type(value[1]) is dict):
            _State.programs = value[1]


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the kept program when there is one."""
    if _State.file is None:
        return re.compile(pattern, flags)
    flags = int(flags)
    program = _State.programs.get((pattern, flags))
    if program is not None:
        with contextlib.suppress(Exception):  # a program this engine refuses: compile
            return _engine_compile(pattern, program)
    compiled, program = _compile_program(pattern, flags)
    if program is not None and len(_State.programs) < _MAX_PROGRAMS:
        _State.programs[(pattern, flags)] = program
        _State.added = True
    return compiled


def _engine_compile(pattern: str, program: _Program) -> re.Pattern[str]:
    final_flags, code, groups, groupindex, indexgroup = program
    compiled: re.Pattern[str] = _sre.compile(pattern, final_flags, code, groups, groupindex,
                                             indexgroup)
    return compiled


def _compile_program(pattern: str, flags: int) -> tuple[re.Pattern[str], _Program | None]:
    """The pattern compiled as ``re`` compiles it, and the program it handed the engine
    (None when this Python's ``re`` is not built as expected: the pattern is compiled by
    ``re.compile`` then)."""
    try:
        from re import _compiler, _parser  # type: ignore[attr-defined]

        parsed: Any = _parser.parse(pattern, flags)
        # Opcodes are int subclasses: plain ints marshal.
        code = [int(op) for op in _compiler._code(parsed, flags)]
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for key, index in groupindex.items():
            indexgroup[index] = key
        program: _Program = (int(flags | parsed.state.flags), code, parsed.state.groups - 1,
                             groupindex, tuple(indexgroup))
        compiled = _engine_compile(pattern, program)
    except re.error:
        raise
    except Exception:
        return re.compile(pattern, flags), None
    return compiled, program


def save() -> None:
    """Write the programs when some were compiled in this run, and stop keeping them (never
    an error: a cache that cannot be written is compiled again next time)."""
    file, added = _State.file, _State.added
    _State.file, _State.added = None, False
    if file is None or not added:
        return
    data = marshal.dumps((_stamp(), _State.programs))
    with contextlib.suppress(OSError):
        file.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        temporary = file.with_name(f".{file.name}.{os.getpid()}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)
        os.replace(temporary, file)
