"""What every detector shares: the finding type, placeholder tests and the scan loop."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Final

from memcli.value_types import FrozenRecord

REDACTED = "[REDACTED]"

# A private key is a few KiB (RSA 4096 is ~3.2 KiB, PGP blocks can be larger): past this, a
# BEGIN without END is not allowed to swallow the rest of a document.
_PEM_LIMIT = 64 * 1024
# Base64 in the body of a real key; fewer than this is a documentation stub like
# "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----".
_PEM_MIN_BODY = 64

# Public documentation examples (see the module docstring).
_KNOWN_EXAMPLES = frozenset(
    {
        # jwt.io's sample token, signed with the published secret "your-256-bit-secret".
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9l"
        "IiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        # Stripe API reference test keys.
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
    }
)

# Substrings that mark a value as a stand-in rather than a credential.
_PLACEHOLDER_MARKS = (
    "example",
    "changeme",
    "change_me",
    "change-me",
    "placeholder",
    "your",
    "xxx",
    "***",
    "...",
    "…",
    "redacted",
    "dummy",
    "sample",
    "replace",
    "insert",
)
# Whole URL passwords that are documentation, not secrets ("postgres://user:password@…").
_PLACEHOLDER_WORDS = frozenset(
    {"password", "passwd", "pass", "pw", "pwd", "secret", "token", "changeme", "apikey",
     "api_key", "key", "mypassword", "yourpassword", "s3cret", "hunter2", "foo", "bar",
     "guest", "admin", "root", "test", "default", "demo"}
)
_FILE_SUFFIX = (".txt", ".pem", ".json", ".key", ".env", ".yaml", ".yml", ".cfg", ".conf",
                ".ini", ".crt", ".p12", ".pfx", ".gpg", ".asc")

_IDENT = "A-Za-z0-9_"
_IDENT_DASH = "A-Za-z0-9_-"
_QUOTE = r"""(?:\\?["'`])?"""
# Separator of an assignment; "(?!=)" keeps "==" out.
_ASSIGN = _QUOTE + r"[ \t]*[:=](?!=)[ \t]*"


def _starts_token(prefix: str, chars: str) -> str:
    """A boundary check placed *after* a token's fixed-width ``prefix``: the prefix is not
    preceded by one of ``chars``, except that a JSON escape (``\\n``, ``\\t``) counts as a
    boundary, since transcripts are JSON with escaped newlines.

    After, not before: a pattern that starts with a literal lets the regex engine jump
    between occurrences of it; one that starts with a lookbehind is tried at every offset
    (about 30 ms per MB each, against well under 1 ms).
    """
    return rf"(?:(?<![{chars}]{prefix})|(?<=\\[nrt]{prefix}))"


class SecretFinding(FrozenRecord):
    """A secret in a text: ``text[start:end]`` is what gets redacted."""

    __slots__ = __match_args__ = ("kind", "start", "end", "line", "column")
    kind: Final[str]
    start: Final[int]
    end: Final[int]
    line: Final[int]
    column: Final[int]

    def __init__(self, kind: str, start: int, end: int, line: int, column: int) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.line = line
        self.column = column


_Span = tuple[int, int, str]

# Letters spelt out: the string module compiles a regular expression when imported.
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _has_letter_and_digit(value: str) -> bool:
    return any(ch.isdigit() for ch in value) and any(ch.isascii() and ch.isalpha() for ch in value)


def _has_mixed_case_and_digit(value: str) -> bool:
    return (
        any(ch.isdigit() for ch in value)
        and any(ch.isupper() for ch in value)
        and any(ch.islower() for ch in value)
    )


def _is_placeholder(value: str) -> bool:
    low = value.lower()
    return any(mark in low for mark in _PLACEHOLDER_MARKS)


def _is_known_example(value: str) -> bool:
    # AWS marks every documentation key with "EXAMPLE"; random tokens never spell it.
    return value in _KNOWN_EXAMPLES or "EXAMPLE" in value


def _looks_random(value: str) -> bool:
    """False for the stand-ins of docs and tutorials ("ghp_xxxxxxxx…", "AKIAXXXXXXXXXXXXXXXX",
    ".../B00000000/XXXXXXXX…"): a real token draws on many characters."""
    low = value.lower()
    return len(set(value)) >= 8 and "xxxx" not in low and "0000000" not in low


def _scan(
    pattern: re.Pattern[str],
    text: str,
    kind: str,
    accept: Callable[[str], bool] | None = None,
    group: int | str = 0,
    haystack: str | None = None,
) -> Iterator[_Span]:
    """Matches of ``pattern`` in ``haystack`` (``text`` itself, or its lowercased copy),
    judged on the original characters."""
    for m in pattern.finditer(text if haystack is None else haystack):
        start, end = m.span(group)
        value = text[start:end]
        if _is_known_example(value) or not _looks_random(value):
            continue
        if accept is None or accept(value):
            yield start, end, kind


