"""Detectors that read structure around a secret: PEM blocks, URLs, assignments, headers."""

from __future__ import annotations

import re
from collections.abc import Iterator

from memcli.safety.redact._base import (
    _FILE_SUFFIX,
    _PEM_LIMIT,
    _PEM_MIN_BODY,
    _PLACEHOLDER_WORDS,
    REDACTED,
    _has_letter_and_digit,
    _is_known_example,
    _is_placeholder,
    _Span,
)
from memcli.safety.redact._patterns import _SOURCES, _pats
from memcli.safety.redact._values import assigned_like


def _url_passwords(text: str, exact: frozenset[str]) -> Iterator[_Span]:
    p = _pats()
    if "://" in exact:
        yield from _url_matches(text, p.url, 32)
    if ":\\/\\/" in exact:
        yield from _url_matches(text, p.url_escaped, 32)


def _url_matches(text: str, pattern: re.Pattern[str], scheme_window: int) -> Iterator[_Span]:
    p = _pats()
    for m in pattern.finditer(text):
        if p.scheme.search(text, max(0, m.start() - scheme_window), m.start()) is None:
            continue
        user, pw = m.group("user"), m.group("v")
        if _is_default_password(user, pw):
            continue
        yield m.start("v"), m.end("v"), "url-password"


def _is_default_password(user: str, pw: str) -> bool:
    low = pw.lower()
    return (
        len(pw) < 4
        or pw == REDACTED
        # "guest:guest", "postgres:postgres": a default, not a secret.
        or low == user.lower()
        or low in _PLACEHOLDER_WORDS
        or pw[0] in "$<{%["
        or len(set(pw)) == 1
        or _is_placeholder(pw)
    )


def _cli_passwords(text: str, exact: frozenset[str]) -> Iterator[_Span]:
    """``curl -u user:password``, a .netrc line, and base64 "user:password" blobs."""
    p = _pats()
    if "-u" in exact:
        for m in p.cli_user.finditer(text):
            if m.start() > 0 and not text[m.start() - 1].isspace():
                continue
            pw = m.group("v")
            if not _is_default_password(m.group("user"), pw) and _credential_like(pw):
                yield m.start("v"), m.end("v"), "cli-password"
    if "login" in exact and "password" in exact:
        for m in p.netrc.finditer(text):
            if _credential_like(m.group("v")):
                yield m.start("v"), m.end("v"), "cli-password"
    if '"auth"' in exact or "_auth" in exact:
        for m in p.basic_blob.finditer(text):
            if _decodes_to_login(m.group("v")):
                yield m.start("v"), m.end("v"), "cli-password"


def _decodes_to_login(value: str) -> bool:
    import binascii  # only a Docker or npm login blob gets here

    try:
        raw = binascii.a2b_base64(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return False
    user, sep, pw = raw.partition(b":")
    return bool(sep and user and len(pw) >= 4) and not _is_placeholder(value)


# What may follow an unquoted value: anything else means it was a function call, an index,
# or a run too long to be a credential.
# The keywords of the assignment patterns, in their order (the first match of a span wins).
_ENV_KEYWORDS = tuple(_SOURCES[1])
_VALUE_END = frozenset(" \t\r\n\f\v\"'`,;)}]\\")


def _credential_like(value: str) -> bool:
    return (
        len(value) >= 8
        and value[0] not in "$%/~.*=!-["
        and _has_letter_and_digit(value)
        and not _is_placeholder(value)
        and not _is_known_example(value)
        and not value.lower().endswith(_FILE_SUFFIX)
    )


def _in_query(text: str, name_start: int) -> bool:
    """Whether the variable name that ends at ``name_start`` follows "?" or "&"."""
    i = name_start
    limit = max(0, name_start - 64)
    while i > limit and (text[i - 1].isalnum() or text[i - 1] in "_-."):
        i -= 1
    return i > 0 and text[i - 1] in "?&"


def _assigned_value(text: str, m: re.Match[str], name_start: int) -> tuple[int, int] | None:
    """The span of an assignment's value, or None when it is not a credential."""
    n = len(text)
    quote = m.group("q")
    if quote:
        start, end = m.span("qv")
        # The closing quote must come next: otherwise the value held a space (prose) or ran
        # past 512 characters. In JSON-escaped text the quote is itself escaped (\\").
        closing = quote[-1] if quote[0] != "\\" else "\\"
        if end >= n or text[end] != closing:
            return None
    else:
        start, end = m.span("v")
        if _in_query(text, name_start):
            # A URL query parameter ("?token=…&next=/"): "&" and "#" end it.
            for stop in "&#":
                found = text.find(stop, start, end)
                if found >= 0:
                    end = found
        elif end < n and text[end] not in _VALUE_END:
            return None
    return (start, end) if assigned_like(text[start:end], bool(quote)) else None


# What may follow a keyword before an assignment's ':' or '=': the rest of the name (a
# superset of the patterns' suffixes, such as "word" or "_access_key"), then a quote, blanks.
_NAME_TAIL = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-")


def _may_assign(low: str, keyword: str) -> bool:
    """Whether some KEYWORD in LOW is followed by what an assignment needs before its value
    (name characters, an optional quote, blanks, then ':' or '='): a note that only mentions
    a token in prose compiles and runs no assignment pattern. Linear: the occurrences inside
    one run of name characters share its answer, so the run is read once."""
    size = len(low)
    at = low.find(keyword)
    while at >= 0:
        end = at + len(keyword)
        while end < size and low[end] in _NAME_TAIL:
            end += 1
        nxt = end
        if nxt < size and low[nxt] == "\\":
            nxt += 1
        if nxt < size and low[nxt] in "\"'`":
            nxt += 1
        while nxt < size and low[nxt] in " \t":
            nxt += 1
        if nxt < size and low[nxt] in ":=":
            return True
        at = low.find(keyword, max(end, at + 1))
    return False


def _env_assignments(text: str, low: str, folded: frozenset[str]) -> Iterator[_Span]:
    p = _pats()
    for keyword in _ENV_KEYWORDS:
        if keyword not in folded or not _may_assign(low, keyword):
            continue
        for m in p.env_key(keyword).finditer(low):
            name_start = m.start()
            if keyword == "key":
                owner = p.key_owner.search(low, max(0, name_start - 12), name_start)
                if owner is None:
                    continue
                name_start = owner.start()
            elif keyword == "token" and p.not_secret_token.search(
                low, max(0, name_start - 14), name_start
            ):
                continue
            if name_start > 0:
                prev = text[name_start - 1]
                escaped = prev in "nrt" and name_start > 1 and text[name_start - 2] == "\\"
                # The keyword must begin a name component: "DB_PASSWORD", "dbPassword",
                # not "bypass" or "BYPASS".
                camel = prev.islower() and text[name_start].isupper()
                if prev.isalpha() and not camel and not escaped and not _glued(low, name_start):
                    continue
            span = _env_line_value(text, name_start, m.start())
            if span is None:
                span = _assigned_value(text, m, name_start)
            if span is not None:
                yield span[0], span[1], "env-assignment"


_ENV_NAME = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _env_line_value(text: str, name_start: int, keyword_at: int) -> tuple[int, int] | None:
    """The value of an env-file line (``DB_PASSWORD=p(a)ss;w,rd``, ``export X="a b"``): an
    upper-case name that starts its line, then ``=`` with no blank. Such a value is not
    code, so it runs to the end of the line (to the next blank, or to its closing quote):
    the punctuation that ends a value elsewhere (``(``, ``,``, ``;``, ``<``) is part of it.
    None when the line is not of that form; the other rules then read it."""
    size = len(text)
    start = name_start
    while start > 0 and start > name_start - 64 and text[start - 1] in _ENV_NAME:
        start -= 1
    end = keyword_at
    while end < size and end - keyword_at < 64 and text[end] in _ENV_NAME:
        end += 1
    if end >= size - 1 or text[end] != "=" or text[start:end].upper() != text[start:end]:
        return None
    if not _starts_line(text, start):
        return None
    at = end + 1
    limit = min(size, at + 512)
    quote = text[at]
    if quote in "\"'":
        close = text.find(quote, at + 1, limit)
        if close < 0 or "\n" in text[at:close] or (quote == '"' and text[close - 1] == "\\"):
            return None
        value = text[at + 1:close]
        return (at + 1, close) if assigned_like(value, True) else None
    stop = at
    while stop < limit and not text[stop].isspace() and text[stop] not in "\"'`\\":
        stop += 1
    return (at, stop) if assigned_like(text[at:stop], False) else None


def _starts_line(text: str, at: int) -> bool:
    """Whether only indentation, ``export `` or a YAML list's ``- `` precede ``at`` on its
    line (a line of JSON-escaped text starts after ``\\n``)."""
    i = at
    if text.endswith("export ", max(0, i - 7), i):
        i -= 7
    while i > 0 and text[i - 1] in " \t":
        i -= 1
    if i > 0 and text[i - 1] == "-":
        i -= 1
        while i > 0 and text[i - 1] in " \t":
            i -= 1
    return i == 0 or text[i - 1] in "\r\n" or (i > 1 and text[i - 2:i] == "\\n")


# Names that glue a word to "pass"/"pwd" without a separator ("PGPASSWORD", "SSHPASS").
_GLUED = ("pg", "ssh", "db", "my", "root", "admin", "user", "app", "smtp", "mail", "redis",
          "mongo", "ldap", "sudo", "vnc", "rabbitmq", "keystore", "master", "wifi", "ftp")


def _glued(low: str, name_start: int) -> bool:
    for word in _GLUED:
        start = name_start - len(word)
        if start >= 0 and low.startswith(word, start) and (
            start == 0 or not low[start - 1].isalpha()
        ):
            return True
    return False


def _auth_headers(text: str, low: str) -> Iterator[_Span]:
    for m in _pats().auth_header.finditer(low):
        start, end = m.span("v")
        value = text[start:end]
        if m.group("scheme") == "basic":
            import binascii  # only an Authorization: Basic header gets here

            # Base64 of "user:password" often has no digit; decoding it is the better test.
            try:
                ok = b":" in binascii.a2b_base64(value) and not _is_placeholder(value)
            except (binascii.Error, ValueError):
                ok = False
        else:
            ok = _credential_like(value)
        if ok:
            yield start, end, "auth-header"


def _private_keys(text: str) -> Iterator[_Span]:
    p = _pats()
    n = len(text)
    pos = 0
    # Position of the next "-----END" at or after the current block: kept between blocks so
    # that many BEGINs without an END do not each rescan the rest of the text.
    next_end = -1
    while True:
        m = p.pem_begin.search(text, pos)
        if m is None:
            return
        start, body_start = m.span()
        if next_end != n and next_end < body_start:
            found = text.find("-----END", body_start)
            next_end = n if found < 0 else found
        stop = -1
        if next_end < n and next_end - start <= _PEM_LIMIT:
            other_begin = text.find("-----BEGIN", body_start, next_end)
            end_m = p.pem_end.match(text, next_end) if other_begin < 0 else None
            if end_m is not None:
                body = text[body_start:next_end]
                if sum(len(r) for r in p.pem_run.findall(body)) >= _PEM_MIN_BODY:
                    stop = end_m.end()
        if stop < 0:
            stop = _truncated_pem_end(text, start, body_start)
        if stop < 0:
            pos = body_start
            continue
        yield start, stop, "private-key"
        pos = stop


def _truncated_pem_end(text: str, start: int, body_start: int) -> int:
    """End of a key whose END line is missing, or -1 when there is not enough body."""
    p = _pats()
    n = len(text)
    rest = p.pem_rest.match(text, body_start)
    assert rest is not None  # "*" always matches
    body = 0
    stop = body_start
    for run in p.pem_run.finditer(text, body_start, rest.end()):
        body += len(run.group())
        stop = run.end()
    if body:
        # Through the short tail that follows the last long run ("…\\nAB==") but not
        # across a space into the prose that may share the line.
        tail = p.pem_tail.match(text, stop, rest.end())
        stop = tail.end() if tail else stop
    j = rest.end()
    if j < n and text[j] in "\r\n":
        newline = text.find("\n", j)
        j = n if newline < 0 else newline + 1
        while 0 < j < n and j - start <= _PEM_LIMIT:
            line_end = text.find("\n", j)
            if line_end < 0:
                line_end = n
            raw = text[j:line_end].rstrip("\r \t")
            # Indented when pasted into YAML ("key: |") or a Markdown list.
            line = raw.lstrip(" \t")
            if line:
                if p.pem_line.fullmatch(line):
                    body += len(line)
                elif not p.pem_header.fullmatch(line):
                    break
                # Blank lines (PGP, encrypted PEM) are crossed but never end the span.
                stop = j + len(raw)
            j = line_end + 1
    return stop if body >= _PEM_MIN_BODY else -1


