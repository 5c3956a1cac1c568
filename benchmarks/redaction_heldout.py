"""The held-out redaction set (benchmarks/data/redaction_heldout.txt): its cases, expanded.

The file is read, each ``{{kind:N}}`` template is filled by a fixed-seed generator, and each
``⟦…⟧`` mark becomes a span that must be redacted. Scoring (``score``): a marked span is
recalled when none of its 8-character windows survives ``redact`` (the whole of it, when it
is shorter); a finding is correct when it overlaps a marked span. Precision is correct
findings over all findings, in secret and clean cases alike.
"""

from __future__ import annotations

import base64
import random
import re
from pathlib import Path
from typing import NamedTuple

DATA = Path(__file__).resolve().parent / "data" / "redaction_heldout.txt"

_ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"
_ALPHABETS = {
    "alpha": _ALPHA,
    "alnum": _ALPHA + _DIGITS,
    "lower": _ALPHA[:26],
    "hex": "0123456789abcdef",
    "b64": _ALPHA + _DIGITS + "+/",
    "b64u": _ALPHA + _DIGITS + "-_",
    "digits": _DIGITS,
    "pw": _ALPHA + _DIGITS + "!@#%^&*_-+=.~?",
}
_TEMPLATE = re.compile(r"\{\{(\w+)(?::(\d+))?\}\}")


class Case(NamedTuple):
    label: str
    secret: bool  # the file says it holds a credential
    text: str
    spans: list[tuple[int, int]]


def _fill(rng: random.Random, m: re.Match[str]) -> str:
    kind, size = m.group(1), int(m.group(2) or 0)
    if kind == "basic":
        user = "".join(rng.choice(_ALPHABETS["lower"]) for _ in range(6))
        pw = "".join(rng.choice(_ALPHABETS["pw"]) for _ in range(12))
        return base64.b64encode(f"{user}:{pw}".encode()).decode()
    alphabet = _ALPHABETS[kind]
    out = "".join(rng.choice(alphabet) for _ in range(size))
    if kind == "pw":
        # At least one of each class, so the value is a password and not a word.
        out = rng.choice(_ALPHA) + out[1:-2] + rng.choice(_DIGITS) + rng.choice("!#%&*") \
            if size >= 4 else out
    return out


def load(path: Path = DATA, seed: int = 20261207) -> list[Case]:
    rng = random.Random(seed)
    cases: list[Case] = []
    label = ""
    secret = False
    lines: list[str] = []

    def close() -> None:
        if not label:
            return
        raw = "\n".join(lines).strip("\n")
        raw = _TEMPLATE.sub(lambda m: _fill(rng, m), raw)
        text_parts: list[str] = []
        spans: list[tuple[int, int]] = []
        pos = 0
        size = 0
        for m in re.finditer("⟦(.*?)⟧", raw, re.S):
            before = raw[pos:m.start()]
            text_parts.append(before)
            size += len(before)
            spans.append((size, size + len(m.group(1))))
            text_parts.append(m.group(1))
            size += len(m.group(1))
            pos = m.end()
        text_parts.append(raw[pos:])
        cases.append(Case(label, secret, "".join(text_parts), spans))

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("=== "):
            close()
            kind, _, label = line[4:].partition(" ")
            secret = kind == "secret"
            lines = []
        elif label and not line.startswith("#"):
            lines.append(line)
    close()
    return cases


class Score(NamedTuple):
    marked: int  # credentials marked in the set
    recalled: int  # of them, fully gone after redact
    findings: int  # findings in all cases
    correct: int  # of them, overlapping a mark
    missed: list[str]  # "label: value" of each credential that survived
    flagged: list[str]  # "label: text" of each finding that overlaps no mark


def _survives(value: str, out: str) -> bool:
    if len(value) < 8:
        return value in out
    return any(value[i:i + 8] in out for i in range(len(value) - 7))


def score(cases: list[Case]) -> Score:
    from memcli.safety.redact import redact

    marked = recalled = findings = correct = 0
    missed: list[str] = []
    flagged: list[str] = []
    for case in cases:
        out, found = redact(case.text)
        for start, end in case.spans:
            marked += 1
            value = case.text[start:end]
            if _survives(value, out):
                missed.append(f"{case.label}: {value}")
            else:
                recalled += 1
        for f in found:
            findings += 1
            if any(f.start < end and start < f.end for start, end in case.spans):
                correct += 1
            else:
                flagged.append(f"{case.label}: {case.text[f.start:f.end]!r} ({f.kind})")
    return Score(marked, recalled, findings, correct, missed, flagged)
