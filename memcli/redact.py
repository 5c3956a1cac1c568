"""Find credentials in text and replace them with ``[REDACTED]``.

Used on every write (note content) and on every transcript before it is sent to an LLM, and
by ``lint`` over whole stores, so two things matter more than recall:

* Precision. Only provider-shaped tokens and a few structural forms (PEM blocks, JWTs,
  passwords in URLs, ``NAME=value`` assignments of secret-named variables) are reported.
  There is no entropy heuristic: it flagged plain prose and hashes in practice (see
  NOTES.md on detect-secrets). The word "password", UUIDs, git SHAs and digests are not
  secrets.
* Cost. Each detector is gated by a substring test (``"AKIA" in text``), so a note with none
  of the trigger strings costs a handful of ``in`` checks and no regex scan at all. Every
  regex starts with a literal, so the engine jumps between its occurrences; the
  case-insensitive ones run on a lowercased copy of the text instead of using ``(?i)``.

Every regex is linear by construction: no quantifier sits inside another unbounded
quantifier, long character runs are possessive (they never give characters back), and
detectors whose match might be rejected after the fact resume *after* the match, so a run
is never rescanned from every offset. ``tests/test_redact.py`` checks the patterns for
nested quantifiers.

Decisions worth knowing (each has a test in the corpus):

* Published documentation examples are not secrets: AWS's ``AKIA…EXAMPLE`` key ids and
  ``…EXAMPLEKEY`` secret keys (anything holding upper-case ``EXAMPLE``), the jwt.io sample
  token, and Stripe's two public docs test keys. They are fixed strings anyone can find,
  and notes about AWS/Stripe/JWT often quote them; redacting them would only teach people
  to ignore findings. Stand-ins such as ``ghp_xxxx…`` or ``AKIAXXXXXXXXXXXXXXXX`` are
  ignored too.
* A ``NAME=value`` / ``name: value`` / ``"name": "value"`` assignment is reported only when
  the name ends in a secret word (``password``, ``passwd``, ``passphrase``, ``pwd``,
  ``token``, ``secret``, ``secret_key``, ``api_key``, ``access_key``, ``private_key``, …)
  and the value looks like a credential: 8+ characters, no whitespace, a letter and a
  digit, not a reference (``$VAR``, ``${VAR}``, ``%VAR%``, ``<your-key>``), not a
  placeholder (``changeme``, ``xxx``, ``example``, ``...``), not a path or a file name, not
  a function call (``get_token(user)``). ``nextPageToken``-style cursors are not tokens.
  A passphrase with spaces is therefore missed: the price of not flagging prose.
* Stripe *test* keys (``sk_test_``/``rk_test_``) are reported like live keys: they read and
  write the account's test-mode data, which often holds real customer emails, and a memory
  file is committed and shared. Publishable keys (``pk_``) are public by design and ignored.
* Only the secret part is redacted where a structure surrounds it: the password of a URL
  (``postgres://app:[REDACTED]@db/x`` stays readable), the value of an assignment, the
  token after ``Authorization: Bearer``. A PEM private key is redacted as a whole block,
  markers included; a key cut off before its END line is redacted through its last
  base64-looking line (at most ``_PEM_LIMIT`` characters).
* ``line`` counts ``\\n`` only; ``column`` is 1-based in code points (str indices).
"""

from __future__ import annotations

import binascii
import functools
import re
import string
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

REDACTED = "[REDACTED]"

# Highest priority first. When two detectors cover overlapping text (an OpenAI key that is
# also the value of OPENAI_API_KEY=, a GitHub token that is also a URL password), the spans
# are merged and the most specific kind names the finding.
KINDS: tuple[str, ...] = (
    "private-key",
    "aws-access-key",
    "aws-secret-key",
    "github-token",
    "anthropic-key",
    "openai-key",
    "slack-token",
    "slack-webhook",
    "google-api-key",
    "stripe-key",
    "jwt",
    "url-password",
    "auth-header",
    "env-assignment",
)
_PRIORITY = {kind: rank for rank, kind in enumerate(KINDS)}

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


@dataclass(frozen=True)
class SecretFinding:
    """A secret in a text: ``text[start:end]`` is what gets redacted."""

    kind: str
    start: int
    end: int
    line: int
    column: int


class _Patterns:
    def __init__(self) -> None:
        c = re.compile
        self.aws_key = c(
            "(?:AKIA|ASIA)" + _starts_token("A[KS]IA", _IDENT) + "[A-Z0-9]{16}(?![A-Za-z0-9_])"
        )
        self.github = c(
            "gh[pousr]_" + _starts_token("gh[pousr]_", _IDENT)
            + "[A-Za-z0-9]{36,251}+(?![A-Za-z0-9_])"
        )
        self.github_pat = c(
            "github_pat_" + _starts_token("github_pat_", _IDENT)
            + "[A-Za-z0-9]{20,40}+_[A-Za-z0-9]{40,100}+(?![A-Za-z0-9_])"
        )
        self.anthropic = c(
            "sk-ant-" + _starts_token("sk-ant-", _IDENT_DASH)
            + "(?:[a-z]{2,8}+[0-9]{2}-)?[A-Za-z0-9_-]{32,}+"
        )
        # The bare form has no dashes, so it cannot start "sk-ant-": the two never collide.
        self.openai = c(
            "sk-" + _starts_token("sk-", _IDENT_DASH)
            + "(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}+|[A-Za-z0-9]{32,}+(?![_-]))"
        )
        self.slack = c(
            "xox[abprs]-" + _starts_token("xox[abprs]-", _IDENT)
            + "[0-9]{1,15}+-[A-Za-z0-9-]{10,250}+(?![A-Za-z0-9_-])"
        )
        self.slack_app = c(
            "xapp-" + _starts_token("xapp-", _IDENT)
            + "[0-9]-[A-Z0-9]{6,20}+-[0-9]{6,20}+-[a-f0-9]{32,80}+(?![A-Za-z0-9_-])"
        )
        self.slack_webhook = c(
            r"hooks\.slack\.com/services/(?P<v>T[A-Z0-9]{6,14}+/B[A-Z0-9]{6,14}+"
            r"/[A-Za-z0-9]{20,40}+)(?![A-Za-z0-9])"
        )
        self.google = c(
            "AIza" + _starts_token("AIza", _IDENT_DASH) + "[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])"
        )
        self.stripe = c(
            "[sr]k_(?:live|test)_" + _starts_token("[sr]k_(?:live|test)_", _IDENT)
            + "[0-9A-Za-z]{16,247}+(?![0-9A-Za-z_])"
        )
        # Not possessive: "[A-Z0-9 ]" also matches "PRIVATE KEY" and must give it back.
        self.pem_begin = c(r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
        self.pem_end = c(r"-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
        # Rest of the BEGIN line: a key flattened onto one line, or JSON-escaped ("\nMIIE…").
        self.pem_rest = c(r"[A-Za-z0-9+/=\\ \t]*+")
        self.pem_run = c(r"[A-Za-z0-9+/=]{20,}+")
        self.pem_line = c(r"[A-Za-z0-9+/=]++")
        self.pem_tail = c(r"[A-Za-z0-9+/=\\]*+")
        self.pem_header = c(r"(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset): [^\n]{0,256}+")
        self.jwt = c(
            "eyJ" + _starts_token("eyJ", _IDENT_DASH)
            + r"[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{16,}+"
        )
        # Anchored on "://" (a literal, so the engine can jump); the scheme is checked
        # separately. The password is greedy, not possessive, so that it ends at the *last*
        # "@" of the authority: "u:p@ss@host" hides "p@ss", not "p".
        self.url = c(r"://(?P<user>[^\s:/?#@\[\]]{0,256}+):(?P<v>[^\s/?#]{1,512})@")
        self.scheme = c(r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}\Z")

        # From here on the patterns run on an ASCII-lowercased copy of the text (same
        # offsets): a case-insensitive regex cannot jump to a literal and costs 100+ ms/MB.

        # A quoted value runs to its closing quote (it may hold "#", ";", "&"); a bare one
        # also stops at the punctuation that ends it in YAML flow, JSON or a connection
        # string. Whitespace ends both: a value with spaces is prose.
        value = (
            r"""(?:(?P<q>\\?["'`])(?P<qv>[^\s"'`\\]{1,512}+)"""
            r"""|(?P<v>[^\s"'`,;(){}\[\]<>\\]{1,512}+))"""
        )
        self.aws_secret = c(
            "aws_?secret_?access_?key" + _ASSIGN + _QUOTE
            + r"(?P<v>[a-z0-9/+]{40})(?![a-z0-9/+=])"
        )
        self.auth_header = c(
            "authorization" + _QUOTE + r"[ \t]*[:=][ \t]*" + _QUOTE
            + r"(?P<scheme>bearer|basic|token)[ \t]+(?P<v>[a-z0-9._~+/=-]{8,4096}+)"
        )
        # One regex per keyword, each led by its literal; the keyword must be the last
        # component of the name ("DB_PASSWORD", "dbPassword", not "PASSWORD_FILE").
        self.env_keys = {
            literal: c(keyword + _ASSIGN + value)
            for literal, keyword in (
                ("pass", "pass(?:word|wd|phrase)?"),
                ("pwd", "pwd"),
                ("token", "token"),
                ("secret", "secret(?:[_-]?(?:access[_-]?)?key)?"),
                # Only "<something>_key" names: the component before "key" is checked by
                # key_owner ("api_key", "accessKey"), so "PRIMARY_KEY=" is left alone.
                ("key", "key"),
            )
        }
        # Searched backwards from a keyword, in a short window that ends at it.
        self.key_owner = c(r"(?:api|access|auth|private|signing|encryption|master)[_-]?\Z")
        # Cursors and handles, not credentials ("nextPageToken", "CancellationToken").
        self.not_secret_token = c(r"(?:page|cursor|continuation|sync|cancellation|resume)[_-]?\Z")

    def all(self) -> dict[str, re.Pattern[str]]:
        out = {k: v for k, v in vars(self).items() if isinstance(v, re.Pattern)}
        out.update((f"env_keys[{k}]", v) for k, v in self.env_keys.items())
        return out


@functools.cache
def _pats() -> _Patterns:
    # Compiled on first use, not at import: the CLI imports this module on TAB completion.
    return _Patterns()


_Span = tuple[int, int, str]

_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


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


def _jwt_header_ok(token: str) -> bool:
    header = token.split(".", 1)[0]
    if len(header) > 8192:
        # Real headers are a few hundred characters (a few KiB with an x5c chain).
        return False
    try:
        raw = binascii.a2b_base64(
            header.replace("-", "+").replace("_", "/") + "=" * (-len(header) % 4)
        )
    except (binascii.Error, ValueError):
        return False
    import json  # the common path never gets here

    try:
        obj = json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: "[[[[…" nested past the limit
        return False
    return isinstance(obj, dict) and isinstance(obj.get("alg"), str)


def _url_passwords(text: str) -> Iterator[_Span]:
    p = _pats()
    for m in p.url.finditer(text):
        if p.scheme.search(text, max(0, m.start() - 32), m.start()) is None:
            continue
        user, pw = m.group("user"), m.group("v")
        low = pw.lower()
        if (
            len(pw) < 4
            or pw == REDACTED
            # "guest:guest", "postgres:postgres": a default, not a secret.
            or low == user.lower()
            or low in _PLACEHOLDER_WORDS
            or pw[0] in "$<{%["
            or len(set(pw)) == 1
            or _is_placeholder(pw)
        ):
            continue
        yield m.start("v"), m.end("v"), "url-password"


# What may follow an unquoted value: anything else means it was a function call, an index,
# or a run too long to be a credential.
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
    return (start, end) if _credential_like(text[start:end]) else None


def _env_assignments(text: str, low: str) -> Iterator[_Span]:
    p = _pats()
    for keyword, pattern in p.env_keys.items():
        if keyword not in low:
            continue
        for m in pattern.finditer(low):
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
                if prev.isalpha() and not camel and not escaped:
                    continue
            span = _assigned_value(text, m, name_start)
            if span is not None:
                yield span[0], span[1], "env-assignment"


def _auth_headers(text: str, low: str) -> Iterator[_Span]:
    for m in _pats().auth_header.finditer(low):
        start, end = m.span("v")
        value = text[start:end]
        if m.group("scheme") == "basic":
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


def _detectors(text: str) -> Iterator[Iterator[_Span]]:
    """Yield the scans worth running on ``text``: each is gated by a cheap substring test."""
    p = _pats()
    if "AKIA" in text or "ASIA" in text:
        yield _scan(p.aws_key, text, "aws-access-key")
    if "ghp_" in text or "gho_" in text or "ghu_" in text or "ghs_" in text or "ghr_" in text:
        yield _scan(p.github, text, "github-token")
    if "github_pat_" in text:
        yield _scan(p.github_pat, text, "github-token")
    if "sk-" in text:
        yield _scan(p.anthropic, text, "anthropic-key", _has_mixed_case_and_digit)
        yield _scan(p.openai, text, "openai-key", _openai_ok)
    if "xox" in text:
        yield _scan(p.slack, text, "slack-token")
    if "xapp-" in text:
        yield _scan(p.slack_app, text, "slack-token")
    if "hooks.slack.com" in text:
        yield _scan(p.slack_webhook, text, "slack-webhook", group="v")
    if "AIza" in text:
        yield _scan(p.google, text, "google-api-key")
    if "k_live_" in text or "k_test_" in text:
        yield _scan(p.stripe, text, "stripe-key", _has_letter_and_digit)
    if "PRIVATE KEY" in text:
        yield _private_keys(text)
    if "eyJ" in text:
        yield _scan(p.jwt, text, "jwt", _jwt_header_ok)
    if "://" in text:
        yield _url_passwords(text)
    if "=" not in text and ":" not in text:
        return
    low = text.lower()
    if len(low) != len(text):
        # A few characters lowercase to two ("İ"); only ASCII matters to the patterns.
        low = text.translate(_ASCII_LOWER)
    if "secret" in low and "aws" in low:
        yield _scan(p.aws_secret, text, "aws-secret-key", group="v", haystack=low)
    if "authorization" in low:
        yield _auth_headers(text, low)
    yield _env_assignments(text, low)


def _openai_ok(token: str) -> bool:
    body = token[3:]
    if body.startswith(("proj-", "svcacct-", "admin-")):
        # Dashes are allowed here, so kebab-case prose must not pass: real keys are random.
        return _has_mixed_case_and_digit(body)
    return _has_letter_and_digit(body)


def find_secrets(text: str) -> list[SecretFinding]:
    """Every secret in ``text``, sorted by offset; overlapping matches are merged."""
    spans = sorted(
        (s for scan in _detectors(text) for s in scan),
        key=lambda s: (s[0], -s[1]),
    )
    merged: list[_Span] = []
    for start, end, kind in spans:
        if merged and start < merged[-1][1]:
            last_start, last_end, last_kind = merged[-1]
            if _PRIORITY[kind] < _PRIORITY[last_kind]:
                last_kind = kind
            merged[-1] = (last_start, max(last_end, end), last_kind)
        else:
            merged.append((start, end, kind))

    findings: list[SecretFinding] = []
    line = 1
    line_start = 0
    pos = 0
    for start, end, kind in merged:
        line += text.count("\n", pos, start)
        nl = text.rfind("\n", pos, start)
        if nl >= 0:
            line_start = nl + 1
        pos = start
        findings.append(SecretFinding(kind, start, end, line, start - line_start + 1))
    return findings


def redact(text: str) -> tuple[str, list[SecretFinding]]:
    """``text`` with every finding replaced by ``REDACTED``, and the findings.

    The findings' offsets refer to the original ``text``.
    """
    findings = find_secrets(text)
    if not findings:
        return text, findings
    parts: list[str] = []
    pos = 0
    for f in findings:
        parts.append(text[pos : f.start])
        parts.append(REDACTED)
        pos = f.end
    parts.append(text[pos:])
    return "".join(parts), findings


def describe(findings: Sequence[SecretFinding]) -> str:
    """A short phrase for messages, e.g. ``"2 secrets (github-token, url-password)"``.

    Never includes any part of a secret.
    """
    count = len(findings)
    if count == 0:
        return "no secrets"
    kinds = sorted({f.kind for f in findings}, key=lambda k: _PRIORITY.get(k, len(KINDS)))
    noun = "secret" if count == 1 else "secrets"
    return f"{count} {noun} ({', '.join(kinds)})"
