"""Find credentials in text and replace them with ``[REDACTED]``.

Used on every write (note content) and on every transcript before it is sent to an LLM, and
by ``lint`` over whole stores, so two things matter more than recall:

* Precision. Only provider-shaped tokens and a few structural forms (PEM blocks, JWTs,
  passwords in URLs, ``NAME=value`` assignments of secret-named variables, command-line
  password flags, cookies) are reported.
  There is no entropy heuristic: detect-secrets' entropy plugins flagged plain prose and
  hashes when we measured them. The word "password", UUIDs, git SHAs and digests are not
  secrets.
* Coverage. Besides the structural forms, ``_catalogue.py`` holds one row per published
  provider token format (Hugging Face ``hf_``, npm ``npm_``, PyPI ``pypi-``, GitLab
  ``glpat-``, SendGrid ``SG.``, DigitalOcean ``dop_v1_``, Google OAuth ``GOCSPX-``, …), the
  formats public catalogues such as gitleaks and detect-secrets list. A token wrapped over
  two lines (a terminal or an editor broke it) is found on the text with the line break
  taken out, and URLs inside JSON strings that escape their slashes (``https:\\/\\/``) are
  read like plain URLs. ``benchmarks/redaction.py`` prints coverage and false positives.
* Cost. Each detector names the literal strings it cannot match without (a prefix such as
  ``AKIA``, a separator such as ``://``, a word such as ``token``), and one pass of an
  Aho-Corasick automaton (``_gates.py``) tells which of them a text holds, so a note with
  none of them costs one read and no regex scan at all. Every regex starts with a literal,
  so the engine jumps between its occurrences; the case-insensitive ones run on a
  lowercased copy of the text instead of using ``(?i)``.

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
* A ``NAME=value`` / ``name: value`` / ``"name": "value"`` assignment is reported when the
  name ends in a secret word (``password``, ``passwd``, ``passphrase``, ``pwd``, ``token``,
  ``secret``, ``secret_key``, ``api_key``, ``access_key``, ``private_key``, ``account_key``,
  …), whatever the value's length or punctuation (:mod:`memcli.safety.redact._values`): the name
  already says it is secret. Left out: a reference (``$VAR``, ``${VAR}``, ``%VAR%``,
  ``<your-key>``, ``settings.API_KEY``, ``db_password``), a placeholder (``changeme``,
  ``xxx``, ``example``, ``...``), a type (``str``), a path or file name, a function call
  (``get_token(user)``), fewer than 4 characters, or a letters-only word of fewer than 6.
  ``nextPageToken``-style cursors are not tokens. A passphrase with spaces is missed: the
  price of not flagging prose.
* A client's password flag (``mysql -pX``, ``sshpass -p X``, ``--password X``) and the
  values of ``Cookie`` / ``Set-Cookie`` headers are read by :mod:`memcli.safety.redact._shell`.
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

import re
from collections.abc import Iterator, Sequence
from typing import TypeAlias

from memcli.safety.redact import _gates, _gates_table
from memcli.safety.redact._base import (
    REDACTED,
    SecretFinding,
    _scan,
    _Span,
)
from memcli.safety.redact._gates import Hits, lower
from memcli.safety.redact._patterns import _pats
from memcli.safety.redact._shell import CLIENT_WORDS, cli_passwords, cookies
from memcli.safety.redact._structural import (
    _auth_headers,
    _cli_passwords,
    _env_assignments,
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
    *_gates_table.CATALOGUE_KINDS,
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
    "cookie",
    "env-assignment",
)))
_PRIORITY = {kind: rank for rank, kind in enumerate(KINDS)}


# What the structural detectors look for before they run: exact strings, and lowercase
# words found in the lowercased text.
_STRUCTURAL = ("PRIVATE KEY", "://", ":\\/\\/", "login", "password", "-u", '"auth"', "_auth")
_ENV_WORDS = ("pass", "pwd", "token", "secret", "key")
_EXACT = tuple(sorted({*_gates_table.GATES, *_STRUCTURAL}))
_FOLDED = tuple(sorted({"aws", "authorization", "cookie", *_ENV_WORDS, *CLIENT_WORDS,
                        *_gates_table.CONTEXTS}))
_hits = _gates.Prefilter(_EXACT, _FOLDED).scan
_TOKEN_GATES = frozenset(_gates_table.GATES)


def _token_scan(text: str, hits: Hits) -> list[_Span]:
    """The token rules' findings; the rules are imported only for a text holding a gate
    one of them runs on (a gate, and its context word when its rules need one)."""
    found = hits.exact & _TOKEN_GATES
    context_of = _gates_table.CONTEXT_OF
    if not any(gate not in context_of or not hits.folded.isdisjoint(context_of[gate])
               for gate in found):
        return []
    from memcli.safety.redact import _tokens

    return list(_tokens.scan(text, hits))


def _structural_scans(text: str, hits: Hits) -> Iterator[Iterator[_Span]]:
    exact, folded = hits.exact, hits.folded
    if "PRIVATE KEY" in exact:
        yield _private_keys(text)
    if "://" in exact or ":\\/\\/" in exact:
        yield _url_passwords(text, exact)
    shell = not folded.isdisjoint(CLIENT_WORDS) or (
        "--" in text and not folded.isdisjoint(_ENV_WORDS))
    if shell:
        low = hits.low if hits.low is not None else lower(text)
        yield cli_passwords(text, low, folded)
    if "=" not in text and ":" not in text and "login" not in exact:
        return
    yield _cli_passwords(text, exact)
    aws = "secret" in folded and "aws" in folded
    if not (aws or "authorization" in folded or "cookie" in folded
            or not folded.isdisjoint(_ENV_WORDS)):
        return
    if not shell:
        low = hits.low if hits.low is not None else lower(text)
    if "cookie" in folded:
        yield cookies(text, low)
    if aws:
        yield _scan(_pats().aws_secret, text, "aws-secret-key", group="v", haystack=low)
    if "authorization" in folded:
        yield _auth_headers(text, low)
    yield _env_assignments(text, low, folded)


# A line break inside a token: a newline (or JSON's "\n") and the indentation after it.
_BREAK = re.compile(r"(?:\r?\n|\\n)[ \t]{0,16}+")
_TOKEN_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                         "_-+/=.%~")


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
    import bisect  # a token cut by a line break is rare: not loaded for every text

    pieces.append(text[pos:])
    joined = "".join(pieces)
    out: list[_Span] = []
    for start, end, kind in _token_scan(joined, _hits(joined)):
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
    """Every secret in ``text``, sorted by offset; overlapping matches are merged.

    Redacting what is found never reveals another secret: when the text with the findings
    replaced holds more (a token glued to the end of a key block starts a token only once
    the block is ``[REDACTED]``), those are found too, so that ``redact`` is idempotent.
    """
    spans = _spans(text)
    for _ in range(_MAX_ROUNDS):
        if not spans:
            break
        redacted, places = _replaced(text, spans)
        more = [_unredacted(s, places) for s in _spans(redacted)]
        grown = _merged(sorted(spans + more, key=lambda s: (s[0], -s[1])))
        if [s[:2] for s in grown] == [s[:2] for s in spans]:
            break
        spans = grown
    return _findings(text, spans)


# Each round must uncover a secret that only the previous round's redactions made visible;
# real text needs one, a contrived chain of glued tokens a few.
_MAX_ROUNDS = 8


def _spans(text: str) -> list[_Span]:
    """One pass of every detector, overlapping spans merged."""
    hits = _hits(text)
    tokens = _token_scan(text, hits)
    if tokens or not hits.exact.isdisjoint(_gates_table.WRAP_GATES):
        tokens += _wrapped_tokens(text)
    spans = sorted(
        tokens + [s for scan in _structural_scans(text, hits) for s in scan],
        key=lambda s: (s[0], -s[1]),
    )
    return _merged(spans)


# (start, end) in the redacted text of each placeholder, and the span it stands for.
_Places: TypeAlias = list[tuple[int, int, _Span]]


def _replaced(text: str, spans: list[_Span]) -> tuple[str, _Places]:
    parts: list[str] = []
    places: _Places = []
    pos = 0
    out_len = 0
    for span in spans:
        parts.append(text[pos:span[0]])
        out_len += span[0] - pos
        places.append((out_len, out_len + len(REDACTED), span))
        parts.append(REDACTED)
        out_len += len(REDACTED)
        pos = span[1]
    parts.append(text[pos:])
    return "".join(parts), places


def _unredacted(span: _Span, places: _Places) -> _Span:
    """A span of the redacted text as a span of the original (a placeholder it touches
    stands for the whole secret behind it)."""
    return _original(span[0], places, True), _original(span[1], places, False), span[2]


def _original(pos: int, places: _Places, start: bool) -> int:
    import bisect  # only a text that held a secret gets here

    # The last placeholder that begins before pos (or at pos, for a start).
    find = bisect.bisect_right if start else bisect.bisect_left
    i = find(places, pos, key=lambda place: place[0]) - 1
    if i < 0:
        return pos
    _, out_end, (orig_start, orig_end, _) = places[i]
    if pos < out_end or (not start and pos == out_end):
        return orig_start if start else orig_end
    return orig_end + (pos - out_end)


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
    redacted, _ = _replaced(text, [(f.start, f.end, f.kind) for f in findings])
    return redacted, findings


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
