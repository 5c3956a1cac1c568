"""Redaction: every corpus secret is found and removed, no near-miss fires, and the scan stays
linear on hostile input."""

from __future__ import annotations

import base64
import itertools
import re
import subprocess
import sys
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.safety import redact as redact_mod
from memcli.safety.redact import KINDS, REDACTED, SecretFinding, describe, find_secrets, redact
from tests.secret_corpus import NEAR_MISSES, SECRET_VALUES, SECRETS
from tests.work import growth


def _id(text: str) -> str:
    return text[:40].replace("\n", "\\n")


def _windows(value: str, width: int = 10) -> list[str]:
    """Every ``width``-character slice of each line of ``value`` (the whole line if shorter):
    if any survives redaction, part of the secret leaked."""
    out: list[str] = []
    for piece in re.split(r"\s|\\n", value):
        if len(piece) <= width:
            if piece:
                out.append(piece)
            continue
        out.extend(piece[i : i + width] for i in range(len(piece) - width + 1))
    return out


# --- the corpus itself ----------------------------------------------------------------------


def test_corpus_is_large_and_covers_every_kind() -> None:
    assert len(SECRETS) == len(SECRET_VALUES)
    assert len(SECRETS) >= 40
    assert len(NEAR_MISSES) >= 40
    assert {kind for kind, _ in SECRETS} == set(KINDS)
    for (_, text), value in zip(SECRETS, SECRET_VALUES, strict=True):
        assert value in text


# --- secrets are found and removed ----------------------------------------------------------


@pytest.mark.parametrize(("kind", "text", "value"),
                         [(k, t, v) for (k, t), v in zip(SECRETS, SECRET_VALUES, strict=True)],
                         ids=[_id(t) for _, t in SECRETS])
def test_secret_is_found_with_its_kind(kind: str, text: str, value: str) -> None:
    findings = find_secrets(text)
    assert [f.kind for f in findings] == [kind]
    f = findings[0]
    # The finding covers the whole secret (it may cover a little more, e.g. PEM markers).
    assert f.start <= text.index(value) and text.index(value) + len(value) <= f.end


@pytest.mark.parametrize(("text", "value"), list(zip([t for _, t in SECRETS], SECRET_VALUES,
                                                     strict=True)),
                         ids=[_id(t) for _, t in SECRETS])
def test_redact_leaves_no_part_of_the_secret(text: str, value: str) -> None:
    out, findings = redact(text)
    assert findings
    assert REDACTED in out
    assert value not in out
    leaked = [w for w in _windows(value) if w in out]
    assert not leaked


@pytest.mark.parametrize("text", NEAR_MISSES, ids=[_id(t) for t in NEAR_MISSES])
def test_near_miss_is_not_flagged(text: str) -> None:
    findings = find_secrets(text)
    assert findings == [], [(f.kind, text[f.start : f.end]) for f in findings]
    assert redact(text) == (text, [])


def test_all_secrets_in_one_document() -> None:
    doc = "\n\n".join(t for _, t in SECRETS)
    out, findings = redact(doc)
    assert sorted({f.kind for f in findings}) == sorted(KINDS)
    assert len(findings) >= len(SECRETS)
    for value in SECRET_VALUES:
        assert not [w for w in _windows(value) if w in out]


# --- positions ------------------------------------------------------------------------------


def test_line_and_column_on_a_multiline_text() -> None:
    gh = SECRET_VALUES[[k for k, _ in SECRETS].index("github-token")]
    pw = "Zq7pL2mXv9"
    text = (
        "# notes\n"
        "\n"
        f"token {gh} here\n"
        "nothing\n"
        f"  db: postgres://app:{pw}@db/x  and {gh}\n"
    )
    findings = find_secrets(text)
    assert [(f.kind, f.line, f.column) for f in findings] == [
        ("github-token", 3, 7),
        ("url-password", 5, len("  db: postgres://app:") + 1),
        ("github-token", 5, len(f"  db: postgres://app:{pw}@db/x  and ") + 1),
    ]
    for f in findings:
        line = text.splitlines()[f.line - 1]
        assert line[f.column - 1 :].startswith(text[f.start : f.end])


def test_findings_are_sorted_and_never_overlap() -> None:
    doc = "\n".join(t for _, t in SECRETS) + "\n" + "\n".join(NEAR_MISSES)
    findings = find_secrets(doc)
    for a, b in itertools.pairwise(findings):
        assert a.end <= b.start
    assert all(f.start < f.end for f in findings)


def test_overlapping_matches_merge_into_the_most_specific_kind() -> None:
    key = SECRET_VALUES[[k for k, _ in SECRETS].index("openai-key")]
    text = f"OPENAI_API_KEY={key}"
    (f,) = find_secrets(text)
    assert (f.kind, f.start, f.end) == ("openai-key", len("OPENAI_API_KEY="), len(text))


# --- structure-preserving redaction ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("postgres://app:Zq7pL2mXv9@db.internal:5432/orders?sslmode=require",
         "postgres://app:[REDACTED]@db.internal:5432/orders?sslmode=require"),
        ("redis://:Zq7pL2mXv9@cache:6379/0", "redis://:[REDACTED]@cache:6379/0"),
        ("see https://bob:p@ss:w0rd@host.example/x.", "see https://bob:[REDACTED]@host.example/x."),
        ("mongodb+srv://svc:Zq7pL2mXv9@c0.mongodb.net/db",
         "mongodb+srv://svc:[REDACTED]@c0.mongodb.net/db"),
    ],
)
def test_url_password_keeps_the_rest_of_the_url(text: str, expected: str) -> None:
    out, findings = redact(text)
    assert out == expected
    assert [f.kind for f in findings] == ["url-password"]


def test_assignment_keeps_name_and_quotes() -> None:
    assert redact("export DB_PASSWORD='Zq7pL2mXv9'\n")[0] == "export DB_PASSWORD='[REDACTED]'\n"
    assert redact('{"client_secret": "Zq7pL2mXv9"}')[0] == '{"client_secret": "[REDACTED]"}'


def test_query_parameter_value_ends_at_the_next_parameter() -> None:
    text = "GET /cb?state=s1&access_token=Zq7pL2mXv9Kd&expires_in=3600#top"
    assert redact(text)[0] == "GET /cb?state=s1&access_token=[REDACTED]&expires_in=3600#top"


def test_basic_auth_is_recognised_by_its_colon() -> None:
    assert find_secrets("Authorization: Basic YWxpY2U6d29uZGVybGFuZA==")[0].kind == "auth-header"
    # Base64 without a "user:password" inside is not Basic credentials.
    assert find_secrets("Authorization: Basic aGVsbG8gd29ybGQ=") == []


def test_jwt_header_must_decode_to_json_with_alg() -> None:
    sig = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV"
    payload = "eyJzdWIiOiIxIn0"
    assert find_secrets(f"eyJhbGciOiJSUzI1NiJ9.{payload}.{sig}")[0].kind == "jwt"
    assert find_secrets(f"eyJ0eXAiOiJKV1QifQ.{payload}.{sig}") == []  # {"typ":"JWT"}
    assert find_secrets(f"eyJ!!!notbase64.{payload}.{sig}") == []
    nested = base64.urlsafe_b64encode(b'{"a":' + b"[" * 5000).decode().rstrip("=")
    assert find_secrets(f"{nested}.{payload}.{sig}") == []


def test_patterns_compile_on_first_use_not_at_import() -> None:
    code = "import memcli.safety.redact as r; assert r._pats.cache_info().currsize == 0"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_gate_tables_are_the_token_rules_own() -> None:
    # memcli.safety.redact._gates_table spells out what the rules say, so that the prefilter is
    # built without building the rules; a rule added or changed must change it too.
    from memcli.safety.redact import _catalogue, _gates_table, _tokens

    rules = _tokens.RULES
    assert _gates_table.GATES == _tokens.GATES
    assert _gates_table.WRAP_GATES == _tokens.WRAP_GATES
    assert _gates_table.CONTEXTS == _tokens.CONTEXTS
    contexts_of = {gate: [rule.context for rule in rules if gate in rule.gates]
                   for gate in _tokens.GATES}
    needing_context = {gate: tuple(sorted(set(words)))
                       for gate, words in contexts_of.items() if all(words)}
    assert needing_context == _gates_table.CONTEXT_OF
    kinds = tuple(dict.fromkeys((*_catalogue.KINDS, *_catalogue.SHAPED_KINDS)))
    assert kinds == _gates_table.CATALOGUE_KINDS


def test_the_token_rules_load_only_for_a_text_one_of_them_can_run_on() -> None:
    code = """if True:
        import sys
        from memcli.safety.redact import find_secrets
        assert find_secrets("plain words and en-us, key: value") == []
        # '-us' gates only the Mailchimp row, which needs the word "mailchimp" too.
        assert find_secrets("ab12cd34ab12cd34ab12cd34ab12cd34-us5 here") == []
        assert "memcli.safety.redact._tokens" not in sys.modules, "loaded for a plain text"
        token = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh"
        assert [f.kind for f in find_secrets(f"token {token}")] == ["huggingface-token"]
        assert "memcli.safety.redact._catalogue" in sys.modules
        mailchimp = "mailchimp ab12cd34ab12cd34ab12cd34ab12cd34-us5 here"
        assert [f.kind for f in find_secrets(mailchimp)] == ["mailchimp-key"]
        print("ok")
    """
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr


def test_pem_block_is_redacted_whole() -> None:
    text = next(t for k, t in SECRETS if k == "private-key" and "RSA" in t)
    out, _ = redact(text)
    assert "BEGIN" not in out and "END RSA" not in out
    assert out.startswith("Here is the deploy key:\n\n[REDACTED]")
    assert out.endswith("\n\nPlease install it.")


def test_truncated_pem_keeps_the_prose_after_it() -> None:
    text = next(t for k, t in SECRETS if k == "private-key" and "cut off" in t)
    out, _ = redact(text)
    assert out == "[REDACTED]\n\nsorry, the paste got cut off"


def test_truncated_pem_is_bounded() -> None:
    line = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2"
    text = "-----BEGIN PRIVATE KEY-----\n" + (line + "\n") * 5000
    (f,) = find_secrets(text)
    assert f.kind == "private-key"
    assert f.end - f.start <= redact_mod._base._PEM_LIMIT + len(line) + 1


# --- idempotence and properties -------------------------------------------------------------


def test_redact_is_idempotent_on_the_corpus() -> None:
    for text in [t for _, t in SECRETS] + NEAR_MISSES:
        once, _ = redact(text)
        twice, again = redact(once)
        assert twice == once, _id(text)
        assert again == []


_fragments = st.sampled_from([t for _, t in SECRETS] + NEAR_MISSES + [
    " ", "\n", "=", ":", "@", "://", "-----BEGIN PRIVATE KEY-----", "sk-", "eyJ", "\\n", '"',
])


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.one_of(_fragments, st.text(max_size=30)), max_size=8))
def test_redact_is_idempotent_on_mixtures(parts: list[str]) -> None:
    once, findings = redact("".join(parts))
    assert redact(once)[0] == once
    for a, b in itertools.pairwise(findings):
        assert a.end <= b.start


def test_token_glued_to_the_end_of_a_key_block_is_redacted_in_one_pass() -> None:
    # Found by hypothesis: the JWT starts a token only once the block before it is
    # [REDACTED] ("-" of the END marker is not a boundary, "]" is), so a second redaction
    # used to find it.
    block = next(t for k, t in SECRETS if k == "private-key" and "PGP" in t)
    jwt = next(v for (k, _), v in zip(SECRETS, SECRET_VALUES, strict=True) if k == "jwt")
    once, findings = redact(block + jwt)
    assert once == REDACTED + REDACTED
    assert [f.kind for f in findings] == ["private-key", "jwt"]
    assert (findings[1].start, findings[1].end) == (len(block), len(block) + len(jwt))
    assert redact("Keys: " + block + jwt + " end")[0] == f"Keys: {REDACTED}{REDACTED} end"
    assert redact(once) == (once, [])


_glued = st.sampled_from(SECRET_VALUES + [t for _, t in SECRETS] + [
    "-----BEGIN PGP PRIVATE KEY BLOCK-----", "-----END PGP PRIVATE KEY BLOCK-----",
    "-----END PRIVATE KEY-----", "eyJ", "sk-", "ghp_", "AKIA", "=", ":", "-", "_", "\n", "\n",
])


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.one_of(_glued, st.text(max_size=6)), min_size=1, max_size=6))
def test_redact_is_idempotent_when_secrets_touch(parts: list[str]) -> None:
    """redact(redact(x)) == redact(x), with secrets and markers glued with no space."""
    once, findings = redact("".join(parts))
    assert redact(once) == (once, [])
    for a, b in itertools.pairwise(findings):
        assert a.end <= b.start


_GATE_CHARS = sorted({c for g in redact_mod._EXACT + redact_mod._FOLDED for c in g}
                     | {c.upper() for g in redact_mod._FOLDED for c in g} | set("\u212a\u0130é\n"))


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(st.one_of(st.sampled_from(redact_mod._EXACT + redact_mod._FOLDED),
                          st.text(alphabet=_GATE_CHARS, max_size=8)), max_size=10))
def test_prefilter_answers_exactly_what_in_would(parts: list[str]) -> None:
    """The one-pass prefilter gates every detector: it must report a trigger string if and
    only if ``in`` finds it, or a detector would be skipped (or run) when it should not."""
    text = "".join(parts)
    hits = redact_mod._hits(text)
    low = redact_mod.lower(text)
    assert hits.exact == {g for g in redact_mod._EXACT if g in text}
    assert hits.folded == {w for w in redact_mod._FOLDED if w in low}


def test_prefilter_folds_like_lower_does() -> None:
    # The Kelvin sign lowercases to ASCII "k"; nothing else outside ASCII lowercases into
    # ASCII without changing the text's length (which makes lower() fold ASCII only).
    into_ascii = [c for c in range(0x80, 0x110000)
                  if any(ord(x) < 0x80 for x in chr(c).lower())]
    assert into_ascii == [0x130, 0x212A]
    assert len(chr(0x130).lower()) == 2
    assert "key" in redact_mod._hits("api_\u212aey=abc12345def").folded
    assert find_secrets("api_\u212aey = 'Zq7pL2mXv9Kd3'")[0].kind == "env-assignment"


@settings(max_examples=examples(500), deadline=None)
@given(st.text())
def test_find_secrets_never_raises_and_secret_free_text_is_unchanged(text: str) -> None:
    findings = find_secrets(text)
    out, again = redact(text)
    assert again == findings
    if not findings:
        assert out == text
    for f in findings:
        assert 0 <= f.start < f.end <= len(text)
        assert f.kind in KINDS


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet=st.sampled_from("AKIAghp_sk-antxoxb=:/@.eyJ0123456789 \n\\'\""),
               max_size=200))
def test_never_raises_on_trigger_heavy_text(text: str) -> None:
    redact(text)


# --- describe -------------------------------------------------------------------------------


def test_describe() -> None:
    gh = SecretFinding("github-token", 0, 5, 1, 1)
    url = SecretFinding("url-password", 9, 12, 1, 10)
    assert describe([]) == "no secrets"
    assert describe([gh]) == "1 secret (github-token)"
    assert describe([url, gh, gh]) == "3 secrets (github-token, url-password)"


def test_describe_never_quotes_the_secret() -> None:
    for (_, text), value in zip(SECRETS, SECRET_VALUES, strict=True):
        assert value not in describe(find_secrets(text))


# --- cost -----------------------------------------------------------------------------------


def _has_nested_quantifier(items: Any, inside_repeat: bool = False) -> bool:
    """True when a variable-length quantifier sits inside a quantifier that can repeat: the
    shape behind catastrophic backtracking. ``(...)?`` is allowed to contain one, since it
    runs at most once."""
    repeats = {sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, sre_parse.POSSESSIVE_REPEAT}
    for op, av in items:
        children: list[Any] = []
        nested = inside_repeat
        if op in repeats:
            lo, hi, sub = av
            if inside_repeat and lo != hi:
                return True
            children, nested = [sub], inside_repeat or hi > 1
        elif op in (sre_parse.SUBPATTERN, sre_parse.ASSERT, sre_parse.ASSERT_NOT):
            children = [av[-1]]
        elif op is sre_parse.ATOMIC_GROUP:
            children = [av]
        elif op is sre_parse.BRANCH:
            children = list(av[1])
        if any(_has_nested_quantifier(child, nested) for child in children):
            return True
    return False


def test_nested_quantifier_check_works() -> None:
    assert _has_nested_quantifier(sre_parse.parse(r"(?:a+)+b"))
    assert _has_nested_quantifier(sre_parse.parse(r"(?:x|a*)*"))
    assert not _has_nested_quantifier(sre_parse.parse(r"a+b*(?:cd)?(?:e{2,3}f)?"))


def test_patterns_have_no_nested_quantifiers() -> None:
    patterns = redact_mod._pats().all() | redact_mod._tokens.patterns()
    assert len(patterns) >= 100
    for name, pattern in patterns.items():
        assert not _has_nested_quantifier(sre_parse.parse(pattern.pattern, pattern.flags)), name


def test_megabyte_of_prose() -> None:
    prose = (
        "We agreed to keep the password policy in the wiki; the token budget is 4096. "
        "Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed key rotation for the API.\n"
    )
    assert find_secrets(prose * (1_000_000 // len(prose) + 1)) == []
    # The work, not the time (benchmarks/redaction.py times it): four times the text makes
    # at most about four times the calls (a rescan from every line would make sixteen).
    assert growth(lambda n: find_secrets(prose * n), 2_500) <= 5


# Units that repeated make a detector backtrack or rescan if it can.
_PATHOLOGICAL = [
    "-----BEGIN",
    "-----BEGIN PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----\n",
    "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END",
    "sk-",
    "sk-ant-",
    "sk-proj-",
    "xsk-ant-a",
    "eyJ",
    "eyJhbGciOi.",
    "ghp_",
    "AKIA",
    "xoxb-1-",
    "://a:",
    "://:b",
    "@",
    "password=",
    "token: ",
    "Authorization: Bearer ",
    "aws_secret_access_key=",
    "a",
    "AAAAAAAAAAAAAAAAAAAAAAAAA\\",
    "-----BEGIN PRIVATE KEY-----AAAAAAAAAAAAAAAAAAAAAAAAA\\n",
    "https://u:p@",
    "x://" + "a" * 40,
    "API_KEY=" + "a1" * 300,
]


@pytest.mark.parametrize("unit", _PATHOLOGICAL)
def test_pathological_repetition_grows_linearly(unit: str) -> None:
    # The work grows with the text, not with its square (benchmarks/redaction.py times the
    # same units): a detector that reread the rest of the text at each match fails here.
    redact(unit * 3)  # the patterns compile on first use: count the text's work alone
    copies = max(1, 20_000 // len(unit))
    assert growth(lambda n: redact(unit * n + "\n" + "A" * n), copies) <= 5, unit


@pytest.mark.slow  # a campaign: 3 MB of each unit redacted three times, 15 s in all
@pytest.mark.parametrize("unit", _PATHOLOGICAL)
def test_pathological_repetition_finishes(unit: str) -> None:
    # 100,000 copies, or ~3 MB for the longer units: what counting calls cannot see (one
    # regex backtracking inside one C call) shows here as a run that does not end.
    text = unit * min(100_000, 3_000_000 // len(unit))
    once, _ = redact(text)
    assert redact(once)[0] == once  # done, and done once
    redact(text + "\n" + "A" * 10_000)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from("aZ\u212a\u0130\u03a3 x=:\u00c9\U0001d400"), max_size=40))
def test_lower_folds_what_the_patterns_read_piece_by_piece(text: str) -> None:
    """lower() works a piece at a time on long texts: same length, every ASCII letter and the
    Kelvin sign folded, nothing else turned into ASCII, whatever the cut."""
    from memcli.safety.redact import _gates

    for piece in (1 << 16, 3, 1):
        original = _gates._PIECE
        _gates._PIECE = piece
        try:
            low = _gates.lower(text)
        finally:
            _gates._PIECE = original
        assert len(low) == len(text)
        for a, b in zip(text, low, strict=True):
            if a.isascii() or a == "\u212a":
                assert b == a.lower()
            else:
                assert not b.isascii()


def test_a_long_non_ascii_text_is_lowercased_without_a_big_buffer() -> None:
    import tracemalloc

    text = "DB_PASSWORD = 'Zq7pL2mXv9Kd3' \u2014 caf\u00e9\n" * 200_000  # 8M characters
    tracemalloc.start()
    try:
        low = redact_mod.lower(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert low.startswith("db_password = 'zq7pl2mxv9kd3'")
    assert peak < 3 * len(text) * 2  # the result (2 bytes a character) and small pieces


# --- the assignment gate ----------------------------------------------------------------------
# An assignment pattern runs only on a text where its keyword is followed by what an
# assignment needs before its value; the gate must never hide a match.

_ASSIGNMENT_PIECES = st.sampled_from([
    "token", "secret", "pass", "pwd", "key", "word", "_access_key", "api_", "_", "-", "9",
    "x", " ", "\t", "\\", '"', "'", "`", ":", "=", "==", "\n", "abc123def456", "É", "$V"])


@settings(max_examples=examples(300))
@given(st.lists(_ASSIGNMENT_PIECES, max_size=14))
def test_the_assignment_gate_never_hides_a_match(pieces: list[str]) -> None:
    from memcli.safety.redact import _gates, _patterns, _structural

    low = _gates.lower("".join(pieces))
    for keyword in _structural._ENV_KEYWORDS:
        if not _structural._may_assign(low, keyword):
            assert _patterns._pats().env_key(keyword).search(low) is None, (low, keyword)


def test_prose_about_tokens_compiles_no_assignment_pattern() -> None:
    from memcli.safety.redact import _patterns

    _patterns._pats.cache_clear()
    text = "title: Token rotation\n\nRotate the secret token weekly; the key lives in the vault.\n"
    assert find_secrets(text) == []
    assert "_env" not in vars(_patterns._pats())
    assert [f.kind for f in find_secrets("API_TOKEN=abc123def456ghi\n")] == ["env-assignment"]


def test_client_table_and_pattern_name_the_same_clients() -> None:
    from memcli.safety.redact import _shell
    from memcli.safety.redact._patterns import _pats

    assert _pats().client.pattern.count("|") + 1 == len(_shell._CLIENTS)
    assert all(_pats().client.fullmatch(name) for name in _shell._CLIENTS)


# Issue 25 item 7: the shapes, each with a value no rule names literally. (value, text)
_SHAPES = [
    ("k9#Lm&2!qZ", "DB_PASSWORD=k9#Lm&2!qZ\nDB_USER=app"),
    ("s3cr(t)x,9;z", "DB_PASSWORD=s3cr(t)x,9;z\nDB_HOST=db"),
    ("p<a>ss[9]{z}", "export SMTP_PASSWORD=p<a>ss[9]{z}"),
    ("pa ss9 w#rd", 'DB_PASSWORD="pa ss9 w#rd"'),
    ("Tq4*", "export API_SECRET='Tq4*'"),
    ("marmaladeseven", "  password: marmaladeseven\n  user: ops"),
    ("w7Yp+0aQ/x", '{"password":"w7Yp+0aQ/x"}'),
    ("a8K2mQ/7pL+zR0", "Server=db;Uid=sa;Pwd=a8K2mQ/7pL+zR0;Database=x"),
    ("Zm9vYmFyYmF6cXV4MTIz", "AccountName=st;AccountKey=Zm9vYmFyYmF6cXV4MTIz;Suffix=x"),
    ("8fJk2LmQp0Zx7VbN4cRt", "Cookie: sid=8fJk2LmQp0Zx7VbN4cRt; theme=dark"),
    ("eR5tY7uI9oP1aS3dF5gH", "Set-Cookie: auth=eR5tY7uI9oP1aS3dF5gH; Path=/; HttpOnly"),
    ("Hx7!pq2Lw", "mysql -h db -uroot -pHx7!pq2Lw shop"),
    ("Ab3$dE6fG", "sshpass -p 'Ab3$dE6fG' ssh ops@10.1.1.1"),
    ("Qw3rty9Zx", "PGPASSWORD=Qw3rty9Zx psql -h db"),
    ("N0tAnother1", "mongosh --host db --password N0tAnother1"),
    ("hf_" + "qWeRtYuIoPaSdFgHjKlZxCvBnMqWeRtYuI", "login with hf_"
     + "qWeRtYuIoPaSdFgHjKlZxCvBnMqWeRtYuI please"),
]


@pytest.mark.parametrize(("value", "text"), _SHAPES, ids=[_id(t) for _, t in _SHAPES])
def test_issue25_shapes_are_redacted(value: str, text: str) -> None:
    out, found = redact(text)
    assert value not in out, out
    assert found and REDACTED in out


_NOT_SECRETS = [
    "password_reset_url=https://example.org/reset",
    "token_count=5",
    "Fill in the password field and press enter.",
    "pg_dump --password-file /run/secrets/pw db",
    "API_TOKEN=<your-token>",
    "API_TOKEN=${TOKEN}",
    "password: changeme",
    'password = input("Password: ")',
    'db_password = os.environ["DB_PASSWORD"]',
    "token = tokens[0]",
    "password: str",
    "mysql -u root -p shop",
    "ssh -p 2222 host && mkdir -p out && cp -pr a b",
    "Cookie: theme=dark; lang=en",
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "123e4567-e89b-42d3-a456-426614174000 at 3f786850e387550fdab836ed7e6dc881de23001b",
    "from huggingface_hub import hf_hub_download",
    "TOKEN=`vault read -field=token secret/ci`",
    "DB_PASSWORD=$(cat /run/secrets/db)",
]


@pytest.mark.parametrize("text", _NOT_SECRETS, ids=_id)
def test_issue25_near_misses_stay(text: str) -> None:
    assert find_secrets(text) == []
