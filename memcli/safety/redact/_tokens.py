"""Tokens known by their shape: one table of rules, each run only when its gates are present.

A rule is a literal-led regex (the engine jumps between occurrences of the literal), the
gates it cannot match without, and how a match is judged. The first-party rows are here;
the public catalogue's rows come from :mod:`memcli.safety.redact._catalogue` in the same form.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from memcli.safety.redact import _catalogue
from memcli.safety.redact._base import (
    _IDENT,
    _IDENT_DASH,
    _has_letter_and_digit,
    _has_mixed_case_and_digit,
    _scan,
    _Span,
    _starts_token,
)
from memcli.safety.redact._gates import Hits


def _jwt_header_ok(token: str) -> bool:
    import binascii  # only a JWT-shaped token gets here

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


def _openai_ok(token: str) -> bool:
    body = token[3:]
    if body.startswith(("proj-", "svcacct-", "admin-")):
        # Dashes are allowed here, so kebab-case prose must not pass: real keys are random.
        return _has_mixed_case_and_digit(body)
    return _has_letter_and_digit(body)


class Rule:
    """One token rule: the kind it reports, its gates, its pattern and how a match is judged.

    A plain class (never compared, never changed after the table is built): a dataclass
    compiles its methods from source at every start of `lint` and `extract`.
    """

    def __init__(self, kind: str, gates: tuple[str, ...], source: str,
                 accept: Callable[[str], bool] | None = None, group: str = "",
                 context: str = "", wraps: bool = True) -> None:
        self.kind = kind
        self.gates = gates
        self.source = source
        self.accept = accept
        self.group = group
        # A lowercase word that must be in the text too: the prefix alone is too common.
        self.context = context
        # Whether its gates may start a token wrapped over two lines whose first line is too
        # short to match alone.
        self.wraps = wraps

    def __repr__(self) -> str:
        return f"Rule({self.kind!r}, {self.gates!r})"

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        # Compiled on first use: most texts never need most rules.
        return re.compile(self.source)


def _led(prefix: str, chars: str, rest: str) -> str:
    """A token that starts with ``prefix``, not preceded by one of ``chars``."""
    return prefix + _starts_token(prefix, chars) + rest


_GH = ("ghp_", "gho_", "ghu_", "ghs_", "ghr_")
_FIRST_PARTY = (
    Rule("aws-access-key", ("AKIA", "ASIA"),
         _led("A[KS]IA", _IDENT, "[A-Z0-9]{16}(?![A-Za-z0-9_])")),
    Rule("github-token", _GH, _led("gh[pousr]_", _IDENT, "[A-Za-z0-9]{36,251}+(?![A-Za-z0-9_])")),
    Rule("github-token", ("github_pat_",), _led(
        "github_pat_", _IDENT, "[A-Za-z0-9]{20,40}+_[A-Za-z0-9]{40,100}+(?![A-Za-z0-9_])")),
    Rule("anthropic-key", ("sk-",), _led(
        "sk-ant-", _IDENT_DASH, "(?:[a-z]{2,8}+[0-9]{2}-)?[A-Za-z0-9_-]{32,}+"),
        _has_mixed_case_and_digit),
    # The bare form has no dashes, so it cannot start "sk-ant-": the two never collide.
    Rule("openai-key", ("sk-",), _led(
        "sk-", _IDENT_DASH,
        "(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,}+|[A-Za-z0-9]{32,}+(?![_-]))"), _openai_ok),
    Rule("slack-token", ("xox",), _led(
        "xox[abprse]-", _IDENT, "[0-9]{1,15}+-[A-Za-z0-9-]{10,250}+(?![A-Za-z0-9_-])")),
    Rule("slack-token", ("xapp-",), _led(
        "xapp-", _IDENT,
        "[0-9]-[A-Z0-9]{6,20}+-[0-9]{6,20}+-[a-f0-9]{32,80}+(?![A-Za-z0-9_-])"), wraps=False),
    Rule("slack-webhook", ("hooks.slack.com",),
         r"hooks\.slack\.com\\?/services\\?/(?P<v>T[A-Z0-9]{6,14}+\\?/B[A-Z0-9]{6,14}+"
         r"\\?/[A-Za-z0-9]{20,40}+)(?![A-Za-z0-9])", group="v", wraps=False),
    Rule("google-api-key", ("AIza",), _led(
        "AIza", _IDENT_DASH, "[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])")),
    Rule("stripe-key", ("k_live_", "k_test_"), _led(
        "[sr]k_(?:live|test)_", _IDENT, "[0-9A-Za-z]{16,247}+(?![0-9A-Za-z_])"),
        _has_letter_and_digit),
    Rule("jwt", ("eyJ",), _led(
        "eyJ", _IDENT_DASH, r"[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{16,}+"),
        _jwt_header_ok),
)


def _catalogued() -> tuple[Rule, ...]:
    rows = [Rule(f.kind, f.gates, _catalogue.source(f), context=f.context)
            for f in _catalogue.FORMATS]
    rows += [Rule(kind, (gate,), pattern, group=group, context=context, wraps=False)
             for kind, gate, pattern, group, context in _catalogue.SHAPED]
    return tuple(rows)


RULES: tuple[Rule, ...] = _FIRST_PARTY + _catalogued()
WRAP_GATES = frozenset(g for rule in RULES if rule.wraps for g in rule.gates)
GATES: tuple[str, ...] = tuple(sorted({g for rule in RULES for g in rule.gates}))
CONTEXTS: tuple[str, ...] = tuple(sorted({rule.context for rule in RULES if rule.context}))


def _rules_by_gate() -> dict[str, tuple[int, ...]]:
    """The rules each gate lets run, in table order (one pass over the table: a pass per gate
    cost ~1 ms at every import)."""
    by_gate: dict[str, list[int]] = {}
    for i, rule in enumerate(RULES):
        for gate in dict.fromkeys(rule.gates):
            by_gate.setdefault(gate, []).append(i)
    return {gate: tuple(found) for gate, found in by_gate.items()}


_BY_GATE = _rules_by_gate()


def scan(text: str, hits: Hits) -> Iterator[_Span]:
    """Every token of a rule whose gate (and context word) ``hits`` holds."""
    chosen = sorted({i for gate in hits.exact for i in _BY_GATE.get(gate, ())})
    for i in chosen:
        rule = RULES[i]
        if rule.context and rule.context not in hits.folded:
            continue
        yield from _scan(rule.pattern, text, rule.kind, rule.accept, rule.group or 0)


def patterns() -> dict[str, re.Pattern[str]]:
    """Every rule's pattern by a readable name (the tests inspect them)."""
    return {f"{rule.kind}:{rule.gates[0]}:{i}": rule.pattern for i, rule in enumerate(RULES)}
