"""Writes the generated part of the extractor's training corpus (benchmarks/data/extraction/train/).

    python benchmarks/make_train_corpus.py

Templates (benchmarks/corpus/*.py, one list per language) x slot values (tools, commands,
places: benchmarks/corpus/slots.py) x noise (lower case, no final punctuation, a typo, a
lead word, a thank-you before the statement, code-switching). Deterministic: the same
templates give the same files byte for byte. The rows have the format of the hand-labelled
splits (see benchmarks/extraction.py); ``family`` names what the turn is. TRAIN.md says
how the corpus was made and what the model trains on.
"""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus.en_zh import EN, ZH
from corpus.ja_ko_ru_it import IT, JA, KO, RU
from corpus.negatives import NEG
from corpus.romance_de import DE, ES, FR, PT
from corpus.slots import SLOTS

OUT = Path(__file__).resolve().parent / "data" / "extraction" / "train"
TEMPLATES = {lang: block + NEG[lang] for lang, block in (
    ("en", EN), ("zh", ZH), ("es", ES), ("pt", PT), ("de", DE), ("fr", FR), ("ja", JA),
    ("ko", KO), ("ru", RU), ("it", IT))}
TURNS = {"en": 800, "zh": 560}  # the others: DEFAULT_TURNS each
DEFAULT_TURNS = 400
CODES = {"PK": ("project", "project_knowledge"), "PC": ("project", "correction_feedback"),
         "UP": ("user", "user_preference"), "UC": ("user", "correction_feedback"),
         "PR": ("project", "reference_material")}
# What people put before a statement, per language (the thank-you noise and lead words).
THANKS = {"en": "thanks.", "zh": "谢谢。", "es": "gracias.", "pt": "valeu.", "de": "danke.",
          "fr": "merci.", "ja": "ありがとう。", "ko": "고마워.", "ru": "спасибо.", "it": "grazie."}
LEADS = {"en": ["ok ", "hmm ", "also ", "oh and "], "zh": ["好，", "嗯，", "另外，"],
         "es": ["ok, ", "bueno, ", "oye, "], "pt": ["ok, ", "então, ", "olha, "],
         "de": ["ok, ", "also, ", "hm, "], "fr": ["ok, ", "bon, ", "alors, "],
         "ja": ["あと、", "えっと、"], "ko": ["아 그리고 ", "음, "], "ru": ["ок, ", "слушай, "],
         "it": ["ok, ", "allora, ", "senti, "]}
SWITCH = ["btw ", "fyi ", "ok so ", "quick note: "]  # English lead words in other languages
_SLOT_RE = re.compile(r"\{(\w+?)(2?)\}")


def parse(block: str) -> list[tuple[str, list[tuple[str, list[str]]], str]]:
    out = []
    for line in block.splitlines():
        family, codes, text = line.split("|", 2)
        memories = []
        for code in filter(None, codes.split(",")):
            kind, words = code.split(":", 1)
            memories.append((kind, words.split("+")))
        out.append((family, memories, text.replace("\\n", "\n")))
    return out


def fill(text: str, rng: random.Random) -> tuple[str, dict[str, str]]:
    values: dict[str, str] = {}
    for name, second in _SLOT_RE.findall(text):
        key = name + second
        if key in values:
            continue
        other = values.get(name) if second else values.get(name + "2")
        choices = [v for v in SLOTS[name] if v != other]
        values[key] = rng.choice(choices)
    return _SLOT_RE.sub(lambda m: values[m.group(1) + m.group(2)], text), values


def _typo(text: str, keep: list[str], rng: random.Random) -> str:
    words = text.split(" ")
    spots = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()
             and not any(part.casefold() in w.casefold() or w.casefold() in k.casefold()
                         for k in keep for part in k.split())]
    if not spots:
        return text
    i = rng.choice(spots)
    w = words[i]
    j = rng.randrange(1, len(w) - 2)
    words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2:]
    return " ".join(words)


def noisy(text: str, lang: str, keep: list[str], rng: random.Random) -> str:
    roll = rng.random()
    if lang not in ("zh", "ja", "ko") and roll < 0.45:
        text = text.lower()
    if rng.random() < 0.3 and not any(text.casefold().endswith(k.casefold()) for k in keep):
        text = text.rstrip("?.!。？！")
    if rng.random() < 0.12 and lang not in ("zh", "ja", "ko"):
        text = _typo(text, keep, rng)
    lead = rng.random()
    if lead < 0.12:
        text = rng.choice(LEADS[lang]) + text
    elif lead < 0.2 and lang != "en":
        text = rng.choice(SWITCH) + text
    return text


def turns_for(lang: str, rng: random.Random) -> list[dict[str, Any]]:
    templates = parse(TEMPLATES[lang])
    count = TURNS.get(lang, DEFAULT_TURNS)
    rows = []
    for n in range(count):
        index = n % len(templates)
        family, memories, template = templates[index]
        text, values = fill(template, rng)
        gold = []
        for kind, words in memories:
            level, note_type = CODES[kind]
            keywords = [w[1:] if w.startswith("=") else values[w] for w in words]
            gold.append({"level": level, "type": note_type,
                         "keywords": [k.casefold() for k in keywords]})
        keep = [k for m in gold for k in m["keywords"]] + list(values.values())
        text = noisy(text, lang, keep, rng)
        if gold and rng.random() < 0.1:
            text = THANKS[lang] + " " + text
        rows.append({"id": f"train-{lang}-{n + 1:04d}", "split": "train", "lang": lang,
                     "family": family, "source": f"generated:{lang}:{index + 1}",
                     "text": text, "memories": gold})
    return rows


# Two to four turns on one topic, for corrections: a fact, maybe repeated, then its change.
_SEQUENCE_TOPICS = (("deploy", "repo_fact", "update"), ("db", "repo_fact", "update"),
                    ("test", "repo_fact", "correction"), ("pkg", "repo_fact", "update"))


def sequences(rng: random.Random) -> list[dict[str, Any]]:
    out = []
    for lang, block in TEMPLATES.items():
        templates = parse(block)
        for slot, first_family, change_family in _SEQUENCE_TOPICS:
            firsts = [t for t in templates if t[0] == first_family and t[1][0][1] == [slot]]
            changes = [t for t in templates if t[0] == change_family and t[1]
                       and t[1][0][1][0] == slot]
            if not firsts or not changes:
                continue
            old, new = rng.sample(SLOTS[slot], 2)
            first = firsts[0][2].replace("{" + slot + "}", old)
            change = changes[0][2].replace("{" + slot + "2}", old).replace(
                "{" + slot + "}", new)
            change, _ = fill(change, rng)
            turns = [{"text": first, "topic": slot}, {"text": THANKS[lang], "topic": None},
                     {"text": change, "topic": slot}]
            out.append({"id": f"seq-train-{lang}-{slot}", "topics": {slot: [old, new]},
                        "turns": turns, "split": "train", "source": "generated", "lang": lang})
    return out


def main() -> int:
    rng = random.Random(26)
    OUT.mkdir(parents=True, exist_ok=True)
    rows = [row for lang in TEMPLATES for row in turns_for(lang, rng)]
    with open(OUT / "generated.jsonl", "w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    seqs = sequences(rng)
    with open(OUT / "sequences.jsonl", "w", encoding="utf-8") as handle:
        for seq in seqs:
            handle.write(json.dumps(seq, ensure_ascii=False) + "\n")
    empty = sum(1 for r in rows if not r["memories"])
    print(f"{len(rows)} turns ({empty} with nothing lasting), {len(seqs)} sequences -> {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
