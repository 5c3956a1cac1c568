"""Detectors for secrets in command lines and HTTP headers: a password on a client's
command line (``mysql -pS3cret``, ``sshpass -p x``, ``--password x``) and the values of a
``Cookie`` / ``Set-Cookie`` header.

Both read a bounded piece of one line after a literal they are gated on, and the next search
starts after that piece, so a text is read a bounded number of times whatever it holds.
"""

from __future__ import annotations

from collections.abc import Iterator

from memcli.safety.redact._base import _Span
from memcli.safety.redact._patterns import _pats
from memcli.safety.redact._values import assigned_like

# How far past a client's name its flags are read (one command line; a longer one is not
# typed by a person).
_LINE = 1024

# Client -> (its password flag, whether the value may follow after a blank, a word that
# must come before the flag on the line). "mysql -p db" prompts for the password and uses
# "db" as the database: the MySQL family takes the password glued to -p only.
_CLIENTS: dict[str, tuple[str, bool, str]] = {
    "mysql": ("p", False, ""),
    "mysqldump": ("p", False, ""),
    "mysqladmin": ("p", False, ""),
    "mysqlimport": ("p", False, ""),
    "mysqlcheck": ("p", False, ""),
    "mariadb": ("p", False, ""),
    "mariadb-dump": ("p", False, ""),
    "sshpass": ("p", True, ""),
    "redis-cli": ("a", True, ""),
    "sqlcmd": ("P", True, ""),
    "mongosh": ("p", True, ""),
    "mongodump": ("p", True, ""),
    "mongorestore": ("p", True, ""),
    "twine": ("p", True, ""),
    "docker": ("p", True, "login"),
    "podman": ("p", True, "login"),
    "nerdctl": ("p", True, "login"),
    "buildah": ("p", True, "login"),
    "skopeo": ("p", True, "login"),
    "helm": ("p", True, "login"),
    "oras": ("p", True, "login"),
    "oc": ("p", True, "login"),
    "az": ("p", True, "login"),
    "cf": ("p", True, "login"),
}
# _patterns.py's "client" pattern lists the same names (tests/test_redact.py checks).
CLIENT_WORDS = tuple(sorted({name.split("-")[0] for name in _CLIENTS} - {"oc", "az", "cf"}
                            | {"login"}))
_SEGMENT_END = "\n|;&"


def _segment_end(low: str, start: int, stops: str = _SEGMENT_END) -> int:
    end = min(len(low), start + _LINE)
    for stop in stops:
        found = low.find(stop, start, end)
        if found >= 0:
            end = found
    return end


def _flag_value(text: str, start: int) -> tuple[int, int, bool] | None:
    """The value that starts at ``start``, quoted (up to its closing quote on the same line,
    at most ``_LINE`` characters on) or bare (up to a blank or what ends a command): its
    span and whether it was quoted. Reads no further than the value."""
    size = len(text)
    if start >= size:
        return None
    if text[start] in "'\"":
        limit = min(size, start + _LINE)
        close = text.find(text[start], start + 1, limit)
        if close < 0 or text.find("\n", start, close) >= 0:
            return None
        return start + 1, close, True
    stop = start
    limit = min(size, start + _LINE)
    while stop < limit and not text[stop].isspace() and text[stop] not in "'\"|;&":
        stop += 1
    return start, stop, False


def cli_passwords(text: str, low: str, folded: frozenset[str]) -> Iterator[_Span]:
    """Passwords on the command line of a known client, and ``--password VALUE``."""
    if not folded.isdisjoint(CLIENT_WORDS):
        yield from _client_flags(text, low)
    if "--" in text:
        yield from _long_flags(text, low)


def _client_words(low: str) -> Iterator[tuple[int, str]]:
    """Each client name standing alone as a word, in order."""
    for m in _pats().client.finditer(low):
        start = m.start()
        if start == 0 or low[start - 1] in " \t\n/(`$'\"":
            yield start, m.group()


def _client_flags(text: str, low: str) -> Iterator[_Span]:
    flag_re = _pats().cli_flag
    resume = 0
    for start, word in _client_words(low):
        if start < resume:
            continue
        flag, spaced, needs = _CLIENTS[word]
        end = _segment_end(low, start)
        resume = end
        at = start + len(word)
        if needs:
            found = low.find(needs, at, end)
            if found < 0:
                continue
            at = found + len(needs)
        for m in flag_re.finditer(text, at, end):
            if m.group("flag") != flag or not text[m.start() - 1].isspace():
                continue
            if m.group("sep") and not spaced:
                continue
            span = _flag_value(text, m.end())
            if span is None or span[0] == span[1]:
                continue
            value = text[span[0]:span[1]]
            if not m.group("sep") and not span[2] and value[0] == "-":
                continue
            if assigned_like(value, span[2]):
                yield span[0], span[1], "cli-password"
            break  # the first password flag of the command is its password


def _long_flags(text: str, low: str) -> Iterator[_Span]:
    """``--password VALUE``, ``--api-key VALUE``, ``--token VALUE`` for any command (the
    ``--password=VALUE`` form is an assignment)."""
    for m in _pats().long_flag.finditer(low):
        if m.start() > 0 and not low[m.start() - 1].isspace():
            continue
        span = _flag_value(text, m.end())
        if span is None or span[0] == span[1]:
            continue
        value = text[span[0]:span[1]]
        if value[0] != "-" and assigned_like(value, span[2]):
            yield span[0], span[1], "cli-password"


def cookies(text: str, low: str) -> Iterator[_Span]:
    """The values of a ``Cookie:`` header's pairs, and of a ``Set-Cookie:`` header's first
    pair (the rest are attributes: Path, Expires, Secure)."""
    resume = 0
    for m in _pats().cookie.finditer(low):
        if m.start() < resume:
            continue  # inside the pairs of the header before
        if m.start() > 0 and (low[m.start() - 1].isalnum() or low[m.start() - 1] == "_"):
            continue
        first_only = low.startswith("set-", m.start())
        end = _segment_end(low, m.end(), "\n")
        for quote in "\"'\\":
            found = text.find(quote, m.end(), end)
            if found >= 0:
                end = found
        pos = resume = m.end()
        while pos < end:
            semi = text.find(";", pos, end)
            stop = end if semi < 0 else semi
            name, eq, raw = text[pos:stop].partition("=")
            name = name.strip()
            if eq:
                value = raw.strip()
                start = stop - len(raw) + (len(raw) - len(raw.lstrip()))
                if _session_value(name, value):
                    yield start, start + len(value), "cookie"
            if first_only:
                break
            pos = resume = stop + 1


# Cookie names that hold a session or a login, whatever their value looks like.
_SESSION_NAMES = ("sess", "sid", "auth", "token", "csrf", "xsrf", "jwt", "login", "remember",
                  "secret", "key")


def _session_value(name: str, value: str) -> bool:
    if len(value) < 8 or not assigned_like(value, False):
        return False
    low = name.lower()
    if any(word in low for word in _SESSION_NAMES):
        return True
    # Any other cookie: only a long random-looking value ("theme=dark" stays).
    return len(value) >= 16 and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
