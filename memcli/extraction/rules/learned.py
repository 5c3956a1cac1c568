"""The learned detector: which of the person's sentences say something lasting, and what.

A linear model over hashed character 2-5-grams and word 1-2-grams, trained with
scikit-learn by ``benchmarks/train_extractor.py`` on the corpus in
``benchmarks/data/extraction/`` (docs/extractor-model.md is its card). Here it runs in pure
Python: the weights file (``extractor.weights`` beside this module) is read once, the
first time a turn is read, and each feature looks up its row of float16 weights where it
lies (``struct.unpack_from``), so nothing is decoded that a sentence does not use.

Heads, each a one-vs-rest logistic regression: ``lasting`` (the sentence holds something
worth keeping), ``route`` (its level and type, five classes) and ``changes`` (it changes a
fact: a correction, an update, a reversal). Deterministic: the same text gives the same
figures on every machine.
"""

from __future__ import annotations

import functools
import json
import math
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

from memcli.extraction.rules.patterns import lazy
from memcli.extraction.rules.sentences import mask, restore, split_sentences

WEIGHTS = Path(__file__).with_name("extractor.weights")
# Stored uncompressed (3.7 MB; the wheel's zip compresses it): inflating it cost 35 ms of
# every extraction's start, a third of `memcli --help`.
MAGIC = b"MEMCLI-EXTRACTOR-2\n"
ROUTES = (("project", "project_knowledge"), ("user", "user_preference"),
          ("project", "correction_feedback"), ("user", "correction_feedback"),
          ("project", "reference_material"))
HEADS = ("lasting", *(f"{level}/{kind}" for level, kind in ROUTES), "changes", "two")

# A "sentence" longer than this is a paste or a run of filler, not something said; the
# rules do not read one that long either.
MAX_SENTENCE_CHARS = 1000
_PH_RE = re.compile("\ue000(\\d+)\ue001")
_WORD_RE = re.compile(r"\w+")


def _marker(value: str) -> str:
    """What the model sees of a masked span: its kind, not its words (a quotation's words
    are someone else's; a URL's and a code span's are names)."""
    if value.startswith(("http://", "https://")):
        return " URL "
    if value.startswith("`"):
        return " CODE "
    return ' "QUOTE" '


def featurise_masked(masked: str, slots: list[str]) -> str:
    return _PH_RE.sub(lambda m: _marker(slots[int(m.group(1))]), masked)


def _spaced(text: str) -> str:
    """A space where a Latin name meets Chinese, Japanese or Korean ("用pnpm管理" -> "用 pnpm
    管理"): people write either, and the n-grams across that seam were one author's habit."""
    out: list[str] = []
    prev = 0  # 1: an ASCII letter or digit, 2: a CJK or Hangul letter
    for ch in text:
        kind = 1 if ch.isascii() and ch.isalnum() else 2 if ch >= "\u3040" and ch.isalpha() else 0
        if kind and prev and kind != prev:
            out.append(" ")
        out.append(ch)
        prev = kind
    return "".join(out)


def features(text: str, dim: int) -> dict[int, float]:
    """Hashed, L2-normalised counts of the text's character 2-5-grams and word 1-2-grams."""
    text = " ".join(_spaced(text.casefold()).split())
    counts: dict[int, float] = {}
    padded = f" {text} "
    crc = zlib.crc32
    for n in (2, 3, 4, 5):
        for i in range(len(padded) - n + 1):
            key = crc(("c" + padded[i:i + n]).encode()) % dim
            counts[key] = counts.get(key, 0.0) + 1.0
    words = _WORD_RE.findall(text)
    for i, word in enumerate(words):
        key = crc(("w" + word).encode()) % dim
        counts[key] = counts.get(key, 0.0) + 1.0
        if i:
            key = crc(("b" + words[i - 1] + " " + word).encode()) % dim
            counts[key] = counts.get(key, 0.0) + 1.0
    norm = math.sqrt(sum(v * v for v in counts.values())) or 1.0
    return {k: v / norm for k, v in counts.items()}


@dataclass(frozen=True)
class Model:
    dim: int
    heads: int
    intercepts: tuple[float, ...]
    weights: bytes  # dim rows of `heads` little-endian float16
    meta: dict[str, object]

    def scores(self, text: str) -> list[float]:
        out = list(self.intercepts)
        row = struct.Struct(f"<{self.heads}e")
        size = row.size
        for key, value in features(text, self.dim).items():
            for h, w in enumerate(row.unpack_from(self.weights, key * size)):
                out[h] += w * value
        return out


def encode(dim: int, intercepts: list[float], rows: bytes, meta: dict[str, object]) -> bytes:
    header = json.dumps({"dim": dim, "heads": list(HEADS), "intercepts": intercepts,
                         **meta}, sort_keys=True).encode()
    return MAGIC + struct.pack("<I", len(header)) + header + rows


def decode(blob: bytes) -> Model:
    if not blob.startswith(MAGIC):
        raise ValueError("not a memcli extractor weights file")
    raw = memoryview(blob)[len(MAGIC):]
    (length,) = struct.unpack_from("<I", raw)
    header = json.loads(bytes(raw[4:4 + length]))
    heads = len(header["heads"])
    dim = int(header["dim"])
    weights = bytes(raw[4 + length:])
    if len(weights) != dim * heads * 2:
        raise ValueError("the extractor weights file is cut short")
    return Model(dim, heads, tuple(float(x) for x in header["intercepts"]), weights, header)


@functools.cache
def model() -> Model:
    return decode(WEIGHTS.read_bytes())


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))


@dataclass(frozen=True)
class Reading:
    """One sentence of the person's, as the model reads it."""

    sentence: str  # the person's words, code and quotations restored
    lasting: float  # probability that it holds something lasting
    level: str
    type: str
    changes: float  # probability that it changes a fact (correction, update, reversal)
    two: float = 0.0  # probability that it holds two statements (of a lasting sentence)


def sentence_units(text: str) -> list[tuple[str, str]]:
    """Each sentence of a message: (what the model reads, the person's words). Pasted logs,
    code blocks and quoted blocks are left out before the split, as the rules do."""
    slots: list[str] = []
    masked = mask(text.replace("\ue000", "").replace("\ue001", ""), slots)
    units = []
    for piece in split_sentences(masked):
        if len(piece) > MAX_SENTENCE_CHARS:
            continue  # pasted, not said (and the rules leave it too)
        words = " ".join(restore(piece, slots).split())
        if words:
            units.append((featurise_masked(piece, slots), words))
    return units


def read_sentence(seen: str, words: str) -> Reading:
    s = model().scores(seen)
    best = max(range(len(ROUTES)), key=lambda i: s[1 + i])
    level, kind = ROUTES[best]
    two = _sigmoid(s[7]) if len(s) > 7 else 0.0  # weights of round 4 have no ``two`` head
    return Reading(words, _sigmoid(s[0]), level, kind, _sigmoid(s[6]), two)


# Where one sentence may join two statements: a semicolon, "and" in the ten languages, a
# space between Chinese or Japanese words, a Korean clause ending in -고, a comma after
# Chinese, Japanese or Korean (テストは vitest で回してて、デプロイは…). A comma between
# Latin words mostly joins an aside, a reason or a request to a statement: measured on the
# written turns left out, splitting there made more false notes than it found facts.
# Compiled on first use: a class beyond Latin-1 costs a 65,536-entry table.
# Not a second statement: "X and not Y" (one), "do X and then Y" (steps of one request).
_NOT_SPLIT = (r"(?:not?|never|nor|nie|nicht|kein\w*|non|nunca|não|nao|nem|pas|jamais|mai|"
              r"никогда|не|нет|then|luego|después|despues|depois|dann|danach|ensuite|puis|poi|"
              r"потом|затем)\b")
_CLAUSE_RE = lazy(
    r"\s*;\s*|,?\s+(?:and|y|e|et|und|и)\s+(?!" + _NOT_SPLIT + r")"
    r"|\s*(?:另外|还有|并且|而且)\s*|(?<=[\u3040-\u9fff])\s+(?=[\u3040-\u9fff])(?![不别没])"
    r"|(?<=[\w\uac00-\ud7af]고)\s+"
    r"|(?<=[\u3040-\u9fff\uac00-\ud7af])\s*[、，,]\s*|(?<=\w)[、，]\s*", re.I)
MIN_CLAUSE_CHARS = 6
# More cut points, for a sentence the ``two`` head is sure holds two statements (round 5):
# a comma between Latin words too ("тесты на catch2, зависимости из conan"), Japanese で
# after a name before the next topic (テストはcatch2で依存はconanから), Korean -며.
_WIDE_RE = lazy(
    _CLAUSE_RE.pattern + r"|\s*,(?!\s*" + _NOT_SPLIT + r")\s*|(?<=[A-Za-z0-9])で(?=[\u3040-\u9fff])"
    r"|(?<=[\uac00-\ud7af]며)\s+", re.I)


def clauses(sentence: str) -> list[str]:
    """The parts of a sentence that may each say something ("we use pnpm and deploy with
    fly": two), too short ones joined to the one before."""
    parts: list[str] = []
    for piece in _CLAUSE_RE.split(sentence):
        piece = piece.strip()
        if not piece:
            continue
        if parts and min(len(piece), len(parts[-1])) < MIN_CLAUSE_CHARS:
            parts[-1] += " " + piece
        else:
            parts.append(piece)
    return parts


def read_text(text: str) -> list[Reading]:
    return [read_sentence(seen, words) for seen, words in sentence_units(text)]


def setting(name: str, default: float) -> float:
    """A decision setting stored with the weights (``threshold``)."""
    value = model().meta.get(name, default)
    return float(value) if isinstance(value, (int, float)) else default


def split_facts(reading: Reading, cut: float, said: str, two_cut: float = 2.0,
                two_clause_cut: float = 1.0) -> list[Reading]:
    """Two statements in one sentence ("we use pnpm and deploy with fly") as two readings:
    when it is not a change of a fact and at least two clauses of SAID (what holds the
    statement: the sentence without a request before an aside) are each lasting >= CUT on
    their own; else, when the ``two`` head is >= TWO_CUT, SAID cut in two where both halves
    are most lasting (at least TWO_CLAUSE_CUT); else the sentence as it is."""
    if reading.changes >= 0.5:
        return [reading]
    parts = clauses(said)
    if len(parts) >= 2:
        read = [read_sentence(seen, words) for part in parts
                for seen, words in sentence_units(part)]
        lasting = [r for r in read if r.lasting >= cut]
        if len(lasting) >= 2:
            return lasting
    if reading.two < two_cut:
        return [reading]
    halves = _halves(said)
    return halves if halves and min(r.lasting for r in halves) >= two_clause_cut else [reading]


def _halves(said: str) -> list[Reading]:
    """SAID cut in two at the cut point (``_WIDE_RE``) where the less lasting half is most
    lasting: what a clause hangs on its neighbour ("…, not wicked_pdf", "o banco e mysql")
    stays with it, as each half is read whole. Empty when there is no cut point."""
    best: list[Reading] = []
    for match in _WIDE_RE.finditer(said):
        left, right = said[:match.start()].strip(), said[match.end():].strip()
        if min(len(left), len(right)) < MIN_CLAUSE_CHARS:
            continue
        read = [read_sentence(seen, words) for part in (left, right)
                for seen, words in sentence_units(part)]
        if len(read) == 2 and (not best or min(r.lasting for r in read)
                               > min(r.lasting for r in best)):
            best = read
    return best
