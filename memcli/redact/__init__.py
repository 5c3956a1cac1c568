"""Find credentials in text and replace them with ``[REDACTED]``.

Used on every write (note content) and on every transcript before it is sent to an LLM, and
by ``lint`` over whole stores, so two things matter more than recall:

* Precision. Only provider-shaped tokens and a few structural forms (PEM blocks, JWTs,
  passwords in URLs, ``NAME=value`` assignments of secret-named variables) are reported.
  There is no entropy heuristic: it flagged plain prose and hashes in practice (see
  NOTES.md on detect-secrets). The word "password", UUIDs, git SHAs and digests are not
  secrets.
* Coverage. Besides the structural forms, ``_catalogue.py`` holds one row per published
  provider token format (Hugging Face ``hf_``, npm ``npm_``, PyPI ``pypi-``, GitLab
  ``glpat-``, SendGrid ``SG.``, DigitalOcean ``dop_v1_``, Google OAuth ``GOCSPX-``, …), the
  formats public catalogues such as gitleaks and detect-secrets list. A token wrapped over
  two lines (a terminal or an editor broke it) is found on the text with the line break
  taken out, and URLs inside JSON strings that escape their slashes (``https:\\/\\/``) are
  read like plain URLs. ``benchmarks/redaction.py`` prints coverage and false positives.
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

import bisect
import re
import string
from collections.abc import Iterator, Sequence

from memcli.redact import _catalogue
from memcli.redact._base import (
    _ASCII_LOWER,
    REDACTED,
    SecretFinding,
    _has_letter_and_digit,
    _has_mixed_case_and_digit,
    _scan,
    _Span,
)
from memcli.redact._patterns import _pats
from memcli.redact._structural import (
    _auth_headers,
    _cli_passwords,
    _env_assignments,
    _jwt_header_ok,
    _private_keys,
    _url_passwords,
)

__all__ = ["KINDS", "REDACTED", "SecretFinding", "describe", "find_secrets", "redact"]

# Highest priority first. When two detectors cover overlapping text (an OpenAI key that is
# also the value of OPENAI_API_KEY=, a GitHub token that is also a URL password), the spans
# are merged and the most specific kind names the finding.
KINDS: tuple[str, ...] = tuple(dict.fromkeys((
    "private-key",
    "aws-access-key",
    "aws-secret-key",
    "github-token",
    *_catalogue.KINDS,
    *_catalogue.SHAPED_KINDS,
    "anthropic-key",
    "openai-key",
    "slack-token",
    "slack-webhook",
    "google-api-key",
    "stripe-key",
    "jwt",
    "url-password",
    "auth-header",
    "cli-password",
    "env-assignment",
)))
_PRIORITY = {kind: rank for rank, kind in enumerate(KINDS)}


def _token_scans(text: str) -> list[Iterator[_Span]]:
    """The scans for tokens known by their shape: each is gated by a cheap substring test."""
    p = _pats()
    scans: list[Iterator[_Span]] = []
    if "AKIA" in text or "ASIA" in text:
        scans.append(_scan(p.aws_key, text, "aws-access-key"))
    if "ghp_" in text or "gho_" in text or "ghu_" in text or "ghs_" in text or "ghr_" in text:
        scans.append(_scan(p.github, text, "github-token"))
    if "github_pat_" in text:
        scans.append(_scan(p.github_pat, text, "github-token"))
    if "sk-" in text:
        scans.append(_scan(p.anthropic, text, "anthropic-key", _has_mixed_case_and_digit))
        scans.append(_scan(p.openai, text, "openai-key", _openai_ok))
    if "xox" in text:
        scans.append(_scan(p.slack, text, "slack-token"))
    if "xapp-" in text:
        scans.append(_scan(p.slack_app, text, "slack-token"))
    if "hooks.slack.com" in text:
        scans.append(_scan(p.slack_webhook, text, "slack-webhook", group="v"))
    if "AIza" in text:
        scans.append(_scan(p.google, text, "google-api-key"))
    if "k_live_" in text or "k_test_" in text:
        scans.append(_scan(p.stripe, text, "stripe-key", _has_letter_and_digit))
    if "eyJ" in text:
        scans.append(_scan(p.jwt, text, "jwt", _jwt_header_ok))
    lower = _lower(text) if _catalogue.needs_lower(text) else None
    scans.append(_catalogue.scan(text, lower))
    return scans


def _lower(text: str) -> str:
    low = text.lower()
    if len(low) != len(text):
        # A few characters lowercase to two ("İ"); only ASCII matters to the patterns.
        low = text.translate(_ASCII_LOWER)
    return low


def _structural_scans(text: str) -> Iterator[Iterator[_Span]]:
    p = _pats()
    if "PRIVATE KEY" in text:
        yield _private_keys(text)
    if "://" in text or ":\\/\\/" in text:
        yield _url_passwords(text)
    if "=" not in text and ":" not in text and "login" not in text:
        return
    low = _lower(text)
    if "secret" in low and "aws" in low:
        yield _scan(p.aws_secret, text, "aws-secret-key", group="v", haystack=low)
    if "authorization" in low:
        yield _auth_headers(text, low)
    yield _cli_passwords(text)
    yield _env_assignments(text, low)


def _openai_ok(token: str) -> bool:
    body = token[3:]
    if body.startswith(("proj-", "svcacct-", "admin-")):
        # Dashes are allowed here, so kebab-case prose must not pass: real keys are random.
        return _has_mixed_case_and_digit(body)
    return _has_letter_and_digit(body)


# A line break inside a token: a newline (or JSON's "\n") and the indentation after it.
_BREAK = re.compile(r"(?:\r?\n|\\n)[ \t]{0,16}+")
_TOKEN_CHARS = frozenset(string.ascii_letters + string.digits + "_-+/=.%~")


def _wrapped_tokens(text: str) -> list[_Span]:
    """Tokens that a line break cut in two, found on ``text`` with the breaks taken out.

    Only a span that crosses a break counts, and it ends before the first break after which
    the text stops looking random: "ghp_…" and a line "Thanks" stay a token and a word.
    """
    pieces: list[str] = []
    joins: list[int] = []  # offsets in the joined text where a break was taken out
    removed: list[int] = []  # characters taken out up to and including that break
    pos = 0
    total = 0
    for m in _BREAK.finditer(text):
        start, end = m.span()
        if start == 0 or end >= len(text) or text[start - 1] not in _TOKEN_CHARS \
                or text[end] not in _TOKEN_CHARS:
            continue
        pieces.append(text[pos:start])
        total += end - start
        joins.append(start - (total - (end - start)))
        removed.append(total)
        pos = end
    if not joins:
        return []
    pieces.append(text[pos:])
    joined = "".join(pieces)
    out: list[_Span] = []
    for scan in _token_scans(joined):
        for start, end, kind in scan:
            first = bisect.bisect_right(joins, start)
            last = bisect.bisect_left(joins, end) - 1
            # Up to the first break after which the text stops looking like a token.
            while last >= first and not _random_piece(joined[joins[last]:end]):
                end = joins[last]
                last -= 1
            if last < first:
                continue  # no break inside: the plain scan has it
            out.append((start + (removed[first - 1] if first else 0), end + removed[last], kind))
    return out


def _random_piece(piece: str) -> bool:
    """Whether the text after a line break continues a token ("x9Qm…") rather than starts
    a word ("Thanks", "next")."""
    if len(piece) < 4:
        return False
    if any(ch.isdigit() for ch in piece):
        return True
    return any(ch.isupper() for ch in piece[1:]) and any(ch.islower() for ch in piece)


def find_secrets(text: str) -> list[SecretFinding]:
    """Every secret in ``text``, sorted by offset; overlapping matches are merged."""
    token_scans = _token_scans(text)
    tokens = [s for scan in token_scans for s in scan]
    if tokens or any(g in text for g in _WRAP_GATES):
        tokens += _wrapped_tokens(text)
    spans = sorted(
        tokens + [s for scan in _structural_scans(text) for s in scan],
        key=lambda s: (s[0], -s[1]),
    )
    return _findings(text, _merged(spans))


# Prefixes that may start a wrapped token whose first line is too short to match alone.
_WRAP_GATES = ("AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "sk-",
               "xox", "AIza", "k_live_", "k_test_", "eyJ",
               *{g for f in _catalogue.FORMATS for g in f.gates})


def _merged(spans: list[_Span]) -> list[_Span]:
    merged: list[_Span] = []
    for start, end, kind in spans:
        if merged and start < merged[-1][1]:
            last_start, last_end, last_kind = merged[-1]
            if _PRIORITY[kind] < _PRIORITY[last_kind]:
                last_kind = kind
            merged[-1] = (last_start, max(last_end, end), last_kind)
        else:
            merged.append((start, end, kind))
    return merged


def _findings(text: str, merged: list[_Span]) -> list[SecretFinding]:
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
