"""The coding-agent recall sets: notes of several projects and one person, prompts as typed.

A set has `notes` (`type`, `file`, `title`, `summary`, `body`, and `project`: a project's
name, or null for a user-level note) and `prompts` (`text`, `relevant`: the note files a good
recall returns, empty when none should; `project`: the project the person works in, or null;
`cross`: no relevant note is in the prompt's language). Each prompt is asked against its own
scope, as memcli would be in that project: the project's notes as the project store and the
user-level notes as the user store; a prompt outside any project sees the user store alone.
A set without `project` fields (recall-coding.json) is one project.

Figures, for memcli and for a stemmed BM25 over the same scope (title, summary and body):
hit@1 and hit@3 (a relevant note in the top k), R@5 (the share of the relevant notes in the
top 5), MRR; for `recall`: the share of answerable prompts it returns a relevant note for,
the share it returns nothing for, and the share of unrelated prompts it stays quiet on; and
the cross-language prompts' top 3 and `recall` alone. Only aggregates are printed: the
held-out set's misses are not to be read (benchmarks/data/RECALL-HELDOUT.md).
"""

from __future__ import annotations

import collections
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memcli.search import analyze as analyzer
from memcli.search.engine import SearchResult, search_states
from memcli.search.recall import RECALL_THRESHOLD, select
from memcli.store.folder import StoreState, head_of
from memcli.store.note_bytes import render_new_note
from memcli.store.notes import parse_note

STAMP = "2026-11-29T10:00:00Z"


@dataclass
class Scope:
    states: list[StoreState]
    texts: dict[str, str]  # file -> title, summary and body (for the BM25 baseline)


@dataclass
class Asked:
    prompt: dict[str, Any]
    ranking: list[str]  # file names, best first
    recalled: list[str] | None  # None: no recall step (a baseline)


def _state(level: str, name: str, notes: Sequence[dict[str, Any]]) -> StoreState:
    state = StoreState(level, Path(name), exists=True)
    for note in notes:
        meta = {"type": note["type"], "title": note["title"], "summary": note["summary"],
                "created": STAMP, "updated": STAMP}
        data = render_new_note(meta, note["body"])
        state.heads[note["file"]] = head_of(level, parse_note(note["file"], data))
        state.raw[note["file"]] = data
    return state


def scopes(data: dict[str, Any]) -> dict[str | None, Scope]:
    """One scope per project (and one for no project), as the set's `scoping` says; a set
    without `project` fields is one project holding every note."""
    notes = data["notes"]
    if not any("project" in n for n in notes):
        state = _state("project", "p-coding", notes)
        scope = Scope([state], {n["file"]: _text(n) for n in notes})
        return collections.defaultdict(lambda: scope)
    user = [n for n in notes if n["project"] is None]
    out: dict[str | None, Scope] = {}
    for project in [*dict.fromkeys(n["project"] for n in notes if n["project"]), None]:
        mine = [n for n in notes if project is not None and n["project"] == project]
        states = [_state("project", f"p-{project}", mine)] if mine else []
        states.append(_state("user", "user", user))
        out[project] = Scope(states, {n["file"]: _text(n) for n in [*mine, *user]})
    return out


def _text(note: dict[str, Any]) -> str:
    return f"{note['title']}\n{note['summary']}\n{note['body']}"


def _words(text: str) -> list[str]:
    text = analyzer.normalise(text)
    return [analyzer.stem(w) for w in re.findall(r"\w+", re.sub(r"'s\b", "", text))
            if w not in analyzer.STOP_WORDS]


def bm25(texts: dict[str, str]) -> Callable[[str], list[str]]:
    """A stemmed BM25 (k1 1.2, b 0.75) over TEXTS, words as \\w+ runs."""
    names = list(texts)
    docs = [collections.Counter(_words(texts[n])) for n in names]
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / max(len(docs), 1)
    frequency = collections.Counter(t for d in docs for t in d)
    idf = {t: math.log(1 + (len(docs) - n + 0.5) / (n + 0.5)) for t, n in frequency.items()}

    def rank(query: str) -> list[str]:
        scores: dict[int, float] = collections.defaultdict(float)
        for term in set(_words(query)):
            for i, doc in enumerate(docs):
                tf = doc.get(term)
                if tf:
                    scores[i] += idf[term] * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * lengths[i]
                                                                       / average))
        return [names[i] for i in sorted(scores, key=lambda i: -scores[i])]

    return rank


def ask(data: dict[str, Any], threshold: float = RECALL_THRESHOLD,
        search: Callable[..., SearchResult] = search_states) -> tuple[list[Asked], list[Asked]]:
    """Every prompt of DATA asked of memcli and of the BM25 baseline, each in its scope."""
    by_scope = scopes(data)
    rankers: dict[int, Callable[[str], list[str]]] = {}
    mine, base = [], []
    for prompt in data["prompts"]:
        key = prompt.get("project")
        scope = by_scope[key]
        found = search(scope.states, prompt["text"], None, limit=None)
        chosen = [h.filename for h in select(found, threshold=threshold).notes]
        mine.append(Asked(prompt, [h.filename for h in found.hits], chosen))
        rank = rankers.setdefault(id(scope), bm25(scope.texts))
        base.append(Asked(prompt, rank(prompt["text"]), None))
    return mine, base


def figures(asked: Sequence[Asked]) -> dict[str, float | int | None]:
    answerable = [a for a in asked if a.prompt["relevant"]]
    unrelated = [a for a in asked if not a.prompt["relevant"]]
    cross = [a for a in answerable if a.prompt.get("cross")]

    def top(a: Asked, k: int) -> bool:
        return bool(set(a.prompt["relevant"]) & set(a.ranking[:k]))

    def share(items: Sequence[Asked], test: Callable[[Asked], bool]) -> float | None:
        return sum(map(test, items)) / len(items) if items else None

    def rr(a: Asked) -> float:
        wanted = set(a.prompt["relevant"])
        return next((1 / (i + 1) for i, n in enumerate(a.ranking) if n in wanted), 0.0)

    gated = asked[0].recalled is not None if asked else False
    out: dict[str, float | int | None] = {
        "answerable": len(answerable),
        "hit@1": share(answerable, lambda a: top(a, 1)),
        "hit@3": share(answerable, lambda a: top(a, 3)),
        "R@5": (sum(len(set(a.prompt["relevant"]) & set(a.ranking[:5]))
                    / len(a.prompt["relevant"]) for a in answerable) / len(answerable))
        if answerable else None,
        "MRR": sum(map(rr, answerable)) / len(answerable) if answerable else None,
        "unrelated": len(unrelated), "cross": len(cross),
        "cross hit@3": share(cross, lambda a: top(a, 3)),
        "recall relevant": None, "recall abstained": None, "quiet": None,
        "cross recall": None,
    }
    if gated:
        def hits(a: Asked) -> bool:
            return bool(set(a.prompt["relevant"]) & set(a.recalled or ()))
        out["recall relevant"] = share(answerable, hits)
        out["recall abstained"] = share(answerable, lambda a: not a.recalled)
        out["quiet"] = share(unrelated, lambda a: not a.recalled)
        out["cross recall"] = share(cross, hits)
    return out


HEADER = ("| set | engine | answerable | hit@1 | hit@3 | R@5 | MRR | recall relevant "
          "| recall abstained | unrelated | quiet | cross | cross hit@3 | cross recall |\n"
          "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
_COLUMNS = ("answerable", "hit@1", "hit@3", "R@5", "MRR", "recall relevant", "recall abstained",
            "unrelated", "quiet", "cross", "cross hit@3", "cross recall")


def row(name: str, engine: str, f: dict[str, float | int | None]) -> str:
    cells = []
    for column in _COLUMNS:
        value = f[column]
        cells.append("-" if value is None else str(value) if isinstance(value, int)
                     else f"{value:.3f}")
    return f"| {name} | {engine} | " + " | ".join(cells) + " |"


def table(sets: dict[str, Path], threshold: float = RECALL_THRESHOLD) -> None:
    print("\n### Coding-agent sets (each prompt asked in its own project's scope)\n")
    print(HEADER)
    for name, path in sets.items():
        if not path.is_file():
            continue
        mine, base = ask(json.loads(path.read_text("utf-8")), threshold)
        print(row(name, "BM25 stemmed (Python)", figures(base)))
        print(row(name, f"memcli (threshold {threshold})", figures(mine)))
