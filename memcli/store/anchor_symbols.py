"""Where a symbol an anchor cites is defined in a file: its definition's lines.

No parser per language: a definition is a line where a definition word (def, class,
function, fn, func, struct, …) or an assignment introduces the name, and its block is that
line and the lines indented under it, up to a closing bracket at its own indentation (or,
for a one-line definition, the line itself). `Store.load` is `load` inside `Store`'s block.
That is what most code looks like, and it is all a digest needs: a change inside the block
changes the digest, a change elsewhere in the file does not.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_KEYWORDS = (rb"(?:(?:export|default|pub(?:\([^)]*\))?|public|private|protected|static|async"
             rb"|abstract|final|override|unsafe|extern|inline|virtual|open|internal)\s+)*"
             rb"(?:def|class|function\*?|fn|func|struct|enum|trait|interface|type|impl"
             rb"|module|mod|object|record|const|let|var|macro_rules!|sub|proc|local\s+function)"
             rb"\s+(?:\([^)]*\)\s*)?")
_CLOSERS = (b"}", b")", b"]", b"end", b"fi", b"esac", b"done")


def _definition(name: str) -> re.Pattern[bytes]:
    word = re.escape(name.encode())
    # `def name`, `func (r *T) name`, `name = …` / `name: T = …` / `name() {` at a line start.
    return re.compile(rb"^(?P<indent>[ \t]*)(?:" + _KEYWORDS + word + rb"(?![\w$])"
                      rb"|" + word + rb"[ \t]*(?::[^=\n]*)?(?:=[^=]|\(\)[ \t]*\{))")


def find_symbol(lines: Sequence[bytes], symbol: str) -> tuple[int, int] | None:
    """The 1-based first and last line of SYMBOL's definition, or None when none is found."""
    low, high = 0, len(lines)
    span: tuple[int, int] | None = None
    for part in re.split(r"\.|::", symbol):
        span = _find(lines, part, low, high)
        if span is None:
            return None
        low, high = span[0], span[1]  # the next part is looked for inside this block
    return span


def _find(lines: Sequence[bytes], name: str, low: int, high: int) -> tuple[int, int] | None:
    pattern = _definition(name)
    needle = name.encode()
    for index in range(low, high):
        line = lines[index]
        if needle not in line:
            continue
        found = pattern.match(line)
        if found is not None:
            return index + 1, _block_end(lines, index, len(found["indent"]), high)
    return None


def _block_end(lines: Sequence[bytes], first: int, indent: int, high: int) -> int:
    """The 1-based last line of the block the definition on line FIRST (0-based) opens."""
    last = first
    for index in range(first + 1, high):
        line = lines[index]
        stripped = line.strip()
        if not stripped:
            continue
        own = len(line) - len(line.lstrip(b" \t"))
        if own > indent:
            last = index
            continue
        if own == indent and stripped.startswith(_CLOSERS):
            last = index
            if stripped.endswith((b":", b"{")):
                continue  # `) -> int:` closes a signature and opens the body
        break
    return last + 1
