"""Recall benchmark: LoCoMo's development half, a coding-agent set, and search latency.

    python benchmarks/recall.py                 # quality (LoCoMo + coding set), ~1 minute
    python benchmarks/recall.py --latency       # also search/recall on 10,000 notes per level
    python benchmarks/recall.py --sweep         # also the recall threshold sweep
    python benchmarks/recall.py --grid          # also the re-ranking weights grid
    python benchmarks/recall.py --heldout       # also the held-out coding set (aggregates)
    python benchmarks/recall.py --by-conversation   # memcli on LoCoMo, a row per conversation
    python benchmarks/recall.py --latency-only --rounds 3   # wall and CPU, cache size, memory

The dated set (``benchmarks/data/recall-dated.json``, written for this benchmark) is asked
through the CLI (``python -m memcli recall --json``, ``MEMCLI_NOW`` at its ``now``), so that
the same script measures any version of memcli.

LoCoMo (Maharana et al., ACL 2024) is read from ``../shared/data/locomo/`` beside the
repository, never copied into it. One note per observation, written as memcli writes notes;
each question of categories 1-4 whose evidence has an observation is a query (a hit: a
returned note's dia_id is in the question's evidence); category 5 (adversarial: the answer
is not in the conversation) counts how often `recall` returns nothing. The first three
conversations are the tuning part (constants were chosen there), the last two are held out.
Baselines (plain and stemmed BM25 in Python, SQLite FTS5 with its porter and trigram
tokenizers) are measured in the same run.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memcli.search import analyze as analyzer  # noqa: E402
from memcli.search.engine import (  # noqa: E402
    WEIGHTS,
    SearchResult,
    Weights,
    reranked,
    search_states,
)
from memcli.search.recall import RECALL_THRESHOLD, select  # noqa: E402
from memcli.store.folder import StoreState, head_of  # noqa: E402
from memcli.store.note_bytes import render_new_note  # noqa: E402
from memcli.store.notes import parse_note  # noqa: E402
from memcli.tokens import TOKENIZER, count_tokens  # noqa: E402
from memcli.writes.plan import derive_summary, shorten  # noqa: E402

LOCOMO = ROOT / ".." / "shared" / "data" / "locomo" / "locomo-dev.json"
CODING = ROOT / "benchmarks" / "data" / "recall-coding.json"
CODING_LONG = ROOT / "benchmarks" / "data" / "recall-coding-long.json"
DATED = ROOT / "benchmarks" / "data" / "recall-dated.json"
DEV = ROOT / "benchmarks" / "data" / "recall-dev.json"
DEV2 = ROOT / "benchmarks" / "data" / "recall-dev2.json"
DEV3 = ROOT / "benchmarks" / "data" / "recall-dev3.json"
DEV4 = ROOT / "benchmarks" / "data" / "recall-dev4.json"
HELDOUT = ROOT / "benchmarks" / "data" / "recall-heldout.json"
TUNE = ("conv-26", "conv-30", "conv-41")
KS = (1, 5, 10)
BUDGETS = (500, 1000)

Ranker = Callable[[str], list[str]]  # query -> file names, best first


@dataclass
class Question:
    text: str
    category: int
    evidence: set[str]


@dataclass
class Corpus:
    name: str
    state: StoreState
    dia: dict[str, set[str]]  # file name -> dia_ids
    questions: list[Question]
    last: datetime | None = None  # the last session's time: "now" for its relative dates


# ---------------------------------------------------------------------- data


def make_note(number: int, text: str, created: str) -> tuple[str, bytes]:
    title = shorten(derive_summary(text).rstrip("."), 60)
    meta = {"type": "project_knowledge", "title": title, "summary": derive_summary(text),
            "created": created, "updated": created}
    return f"project_knowledge_obs-{number}.md", render_new_note(meta, text)


def iso_time(session_time: str) -> str:
    """A LoCoMo session's time ("1:56 pm on 8 May, 2023") as memcli writes `created`."""
    try:
        moment = datetime.strptime(session_time, "%I:%M %p on %d %B, %Y")
    except ValueError:
        return ""
    return moment.strftime("%Y-%m-%dT%H:%M:00Z")


def add_note(state: StoreState, name: str, data: bytes) -> None:
    """Put a note into an in-memory state as the store reader would."""
    state.heads[name] = head_of(state.level, parse_note(name, data))
    state.raw[name] = data


def load_locomo(path: Path) -> list[Corpus]:
    corpora = []
    for sample in json.loads(path.read_text("utf-8")):
        state = StoreState("project", Path(sample["sample_id"]), exists=True)
        dia: dict[str, set[str]] = {}
        times: list[str] = []
        for key, by_speaker in sample["observation"].items():
            session = key.removesuffix("_observation")
            created = iso_time(sample["conversation"].get(f"{session}_date_time", ""))
            times.append(created)
            for facts in by_speaker.values():
                for fact, ids in facts:
                    name, data = make_note(len(dia), fact, created)
                    add_note(state, name, data)
                    dia[name] = set(ids) if isinstance(ids, list) else {ids}
        known = set().union(*dia.values())
        questions = [Question(q["question"], q["category"], set(q["evidence"]))
                     for q in sample["qa"]
                     if q["category"] == 5 or set(q["evidence"]) & known]
        last = max((t for t in times if t), default="")
        corpora.append(Corpus(sample["sample_id"], state, dia, questions,
                              datetime.strptime(last, "%Y-%m-%dT%H:%M:00Z").replace(tzinfo=UTC)
                              if last else None))
    return corpora


# ---------------------------------------------------------------------- baselines


def _plain_words(text: str) -> list[str]:
    text = analyzer.normalise(text)
    return [w for w in re.findall(r"[a-z0-9]+", re.sub(r"'s\b", "", text))
            if w not in analyzer.STOP_WORDS]


def python_bm25(corpus: Corpus, stemmed: bool) -> Ranker:
    def terms(text: str) -> list[str]:
        words = _plain_words(text)
        return [analyzer.stem(w) for w in words] if stemmed else words

    names = list(corpus.state.notes)
    docs = [collections.Counter(terms(corpus.state.notes[n].body)) for n in names]
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / len(docs)
    frequency = collections.Counter(t for d in docs for t in d)
    idf = {t: math.log(1 + (len(docs) - n + 0.5) / (n + 0.5)) for t, n in frequency.items()}

    def rank(query: str) -> list[str]:
        scores: dict[int, float] = collections.defaultdict(float)
        for term in set(terms(query)):
            for i, doc in enumerate(docs):
                tf = doc.get(term)
                if tf:
                    norm = 1.2 * (0.25 + 0.75 * lengths[i] / average)
                    scores[i] += idf[term] * tf * 2.2 / (tf + norm)
        return [names[i] for i in sorted(scores, key=lambda i: -scores[i])]

    return rank


def sqlite_fts(corpus: Corpus, tokenizer: str) -> Ranker:
    db = sqlite3.connect(":memory:")
    db.execute(f"CREATE VIRTUAL TABLE t USING fts5(name UNINDEXED, body, tokenize='{tokenizer}')")
    db.executemany("INSERT INTO t VALUES (?, ?)",
                   [(n, note.body) for n, note in corpus.state.notes.items()])
    minimum = 3 if tokenizer == "trigram" else 1

    def rank(query: str) -> list[str]:
        words = [w for w in _plain_words(query) if len(w) >= minimum]
        if not words:
            return []
        expression = " OR ".join(f'"{w}"' for w in words)
        rows = db.execute("SELECT name FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 50",
                          (expression,))
        return [row[0] for row in rows]

    return rank


# ---------------------------------------------------------------------- scoring


@dataclass
class Scores:
    at: dict[int, float]
    budget: dict[int, float]
    abstain5: float | None = None
    abstain_answerable: float | None = None


def packed(names: Sequence[str], corpus: Corpus, budget: int) -> list[str]:
    out, used = [], 0
    for name in names:
        cost = count_tokens(corpus.state.notes[name].content) + 20
        if used + cost <= budget:
            out.append(name)
            used += cost
    return out


def hit(names: Sequence[str], corpus: Corpus, q: Question) -> bool:
    return any(corpus.dia[n] & q.evidence for n in names)


def score_ranker(corpora: Sequence[Corpus], make: Callable[[Corpus], Ranker]) -> Scores:
    at: collections.Counter[int] = collections.Counter()
    budget: collections.Counter[int] = collections.Counter()
    total = 0
    for corpus in corpora:
        rank = make(corpus)
        for q in (q for q in corpus.questions if q.category != 5):
            total += 1
            names = rank(q.text)
            at.update(k for k in KS if hit(names[:k], corpus, q))
            budget.update(b for b in BUDGETS if hit(packed(names, corpus, b), corpus, q))
    return Scores({k: at[k] / total for k in KS}, {b: budget[b] / total for b in BUDGETS})


def memcli_results(corpus: Corpus, clock: bool = False) -> list[tuple[Question, SearchResult]]:
    """Every candidate for each question, as `recall` sees them. CLOCK: asked at the last
    session's time (relative dates count from it), else with no clock (absolute dates only)."""
    now = corpus.last if clock else None
    return [(q, search_states([corpus.state], q.text, None, limit=None, now=now))
            for q in corpus.questions]


Results = list[tuple[Corpus, list[tuple[Question, SearchResult]]]]


def reweighted(results: Results, weights: Weights) -> Results:
    """The same candidates ordered by the second stage with other WEIGHTS."""
    return [(corpus, [(q, replace(found, hits=reranked(found.hits, weights)))
                      for q, found in pairs]) for corpus, pairs in results]


def score_memcli(results: Sequence[tuple[Corpus, list[tuple[Question, SearchResult]]]],
                 threshold: float = RECALL_THRESHOLD, gate: bool = True) -> Scores:
    """GATE: budgets filled by `recall` (threshold and names); else by the ranking alone."""
    at: collections.Counter[int] = collections.Counter()
    budget: collections.Counter[int] = collections.Counter()
    answerable = adversarial = abstained5 = abstained = 0
    for corpus, pairs in results:
        for q, found in pairs:
            nothing = not select(found, budget=1000, threshold=threshold).notes
            if q.category == 5:
                adversarial += 1
                abstained5 += nothing
                continue
            answerable += 1
            abstained += nothing
            names = [h.filename for h in found.hits]
            at.update(k for k in KS if hit(names[:k], corpus, q))
            for b in BUDGETS:
                chosen = ([h.filename for h in select(found, budget=b, threshold=threshold).notes]
                          if gate else packed(names, corpus, b))
                budget[b] += hit(chosen, corpus, q)
    return Scores({k: at[k] / answerable for k in KS},
                  {b: budget[b] / answerable for b in BUDGETS},
                  abstained5 / max(adversarial, 1), abstained / max(answerable, 1))


def row(name: str, s: Scores) -> str:
    cells = [f"{s.at[k]:.3f}" for k in KS] + [f"{s.budget[b]:.3f}" for b in BUDGETS]
    cells.append(f"{s.abstain5:.0%}" if s.abstain5 is not None else "-")
    cells.append(f"{s.abstain_answerable:.0%}" if s.abstain_answerable is not None else "-")
    return f"| {name} | " + " | ".join(cells) + " |"


HEADER = ("| engine | R@1 | R@5 | R@10 | R in 500 tok | R in 1000 tok | cat-5 abstained "
          "| answerable abstained |\n|---|---:|---:|---:|---:|---:|---:|---:|")


def weights_grid(tuning: Results, held_out: Results) -> None:
    """Recall@5 for each weighting (the `when` and `name` weights as chosen): chosen on the
    tuning part, the held-out part shown."""
    print("\n### Re-ranking weights (chosen by the tuning part: R@5, then R@1, then R@10)\n")
    print("| coverage | names | date | tuning R@1 | tuning R@5 | held-out R@5 |\n"
          "|---:|---:|---:|---:|---:|---:|")
    rows = []
    for coverage in (0.0, 0.25, 0.5, 0.75):
        for names in (0.0, 0.1, 0.2, 0.3):
            for date in (0.0, 0.3, 0.5, 0.75, 1.0):
                weights = replace(WEIGHTS, coverage=coverage, names=names, date=date)
                tune = score_memcli(reweighted(tuning, weights), gate=False)
                held = score_memcli(reweighted(held_out, weights), gate=False)
                rows.append((weights, tune, held))
    rows.sort(key=lambda r: (-r[1].at[5], -r[1].at[1], -r[1].at[10]))
    first = Weights(0, 0, 0)  # the first stage alone
    rows.append((first, score_memcli(reweighted(tuning, first), gate=False),
                 score_memcli(reweighted(held_out, first), gate=False)))
    for weights, tune, held in rows[:8] + rows[-1:]:
        mark = " (chosen)" if weights == WEIGHTS else ""
        print(f"| {weights.coverage} | {weights.names} | {weights.date}{mark} | "
              f"{tune.at[1]:.3f} | {tune.at[5]:.3f} | {held.at[5]:.3f} |")
    cue_grid(tuning, held_out, "when", "a note that says when, for a prompt that asks when")
    cue_grid(tuning, held_out, "name", "a note that holds a name, for a prompt that asks for one")


def cue_grid(tuning: Results, held_out: Results, cue: str, what: str) -> None:
    """The weight of one cue (`when`, `name`), the others as chosen."""
    print(f"\n### Weight of {what}\n")
    print(f"| {cue} | tuning R@1 | tuning R@5 | tuning R@10 | tuning R in 500 tok "
          "| held-out R@1 | held-out R@5 |\n|---:|---:|---:|---:|---:|---:|---:|")
    for value in (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.75):
        weights = replace(WEIGHTS, **{cue: value})
        tune = score_memcli(reweighted(tuning, weights), gate=False)
        held = score_memcli(reweighted(held_out, weights), gate=False)
        mark = " (chosen)" if weights == WEIGHTS else ""
        print(f"| {value}{mark} | {tune.at[1]:.3f} | {tune.at[5]:.3f} | {tune.at[10]:.3f} "
              f"| {tune.budget[500]:.3f} | {held.at[1]:.3f} | {held.at[5]:.3f} |")


def conversation_table(corpora: list[Corpus]) -> None:
    """memcli's figures conversation by conversation: the folds a change is judged on
    (docs/recall.md, round 4 of issue 28), each conversation's questions answered from its
    own notes."""
    print("\n### LoCoMo by conversation (memcli search; recall at its threshold)\n")
    print("| conversation | questions | R@1 | R@5 | R@10 | recall: R in 1000 tok "
          "| cat-5 abstained |\n|---|---:|---:|---:|---:|---:|---:|")
    for corpus in corpora:
        results = [(corpus, memcli_results(corpus))]
        ranking, gated = score_memcli(results, gate=False), score_memcli(results)
        count = sum(1 for q in corpus.questions if q.category != 5)
        print(f"| {corpus.name} | {count} | {ranking.at[1]:.3f} | {ranking.at[5]:.3f} "
              f"| {ranking.at[10]:.3f} | {gated.budget[1000]:.3f} | {gated.abstain5:.1%} |")


def locomo_tables(corpora: list[Corpus], sweep: bool, grid: bool = False) -> None:
    parts = {"tuning (conv 1-3)": [c for c in corpora if c.name in TUNE],
             "held out (conv 4-5)": [c for c in corpora if c.name not in TUNE],
             "whole dev half": corpora}
    results = {c.name: (c, memcli_results(c)) for c in corpora}
    clock_results = {c.name: (c, memcli_results(c, clock=True)) for c in corpora}
    for part, members in parts.items():
        count = sum(1 for c in members for q in c.questions if q.category != 5)
        adversarial = sum(1 for c in members for q in c.questions if q.category == 5)
        print(f"\n### LoCoMo {part}: {count} questions (cat 1-4), {adversarial} cat 5\n")
        print(HEADER)
        print(row("baseline: BM25 plain (Python)", score_ranker(
            members, lambda c: python_bm25(c, stemmed=False))))
        print(row("baseline: BM25 stemmed (Python, Snowball)", score_ranker(
            members, lambda c: python_bm25(c, stemmed=True))))
        print(row("SQLite FTS5 porter unicode61", score_ranker(
            members, lambda c: sqlite_fts(c, "porter unicode61"))))
        print(row("SQLite FTS5 trigram", score_ranker(members, lambda c: sqlite_fts(c, "trigram"))))
        mine = [results[c.name] for c in members]
        first = score_memcli(reweighted(mine, Weights(0, 0, 0)), gate=False)
        first.abstain5 = first.abstain_answerable = None
        print(row("memcli search, first stage only (BM25)", first))
        ranking = score_memcli(mine, gate=False)
        ranking.abstain5 = ranking.abstain_answerable = None
        print(row("memcli search (budgets filled by rank)", ranking))
        print(row(f"memcli recall (threshold {RECALL_THRESHOLD})", score_memcli(mine)))
        clocked = [clock_results[c.name] for c in members]
        at_last = score_memcli(clocked, gate=False)
        at_last.abstain5 = at_last.abstain_answerable = None
        print(row("memcli search, clock at the last session", at_last))
        print(row("memcli recall, clock at the last session", score_memcli(clocked)))
    if grid:
        weights_grid([results[c.name] for c in parts["tuning (conv 1-3)"]],
                     [results[c.name] for c in parts["held out (conv 4-5)"]])
    if sweep:
        print("\n### Recall threshold sweep (tuning part; R within 1000 tokens)\n")
        print("| threshold | R in 1000 tok | cat-5 abstained | answerable abstained |\n"
              "|---:|---:|---:|---:|")
        tuning = [results[c.name] for c in parts["tuning (conv 1-3)"]]
        for threshold in (0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7):
            s = score_memcli(tuning, threshold)
            print(f"| {threshold} | {s.budget[1000]:.3f} | {s.abstain5:.0%} "
                  f"| {s.abstain_answerable:.0%} |")


# ---------------------------------------------------------------------- coding-agent set


def coding_table(path: Path, long_path: Path) -> None:
    """The coding-agent set: its notes, asked its short prompts and, when LONG_PATH is there,
    the prompts of several sentences written against the same notes."""
    data = json.loads(path.read_text("utf-8"))
    state = StoreState("project", Path("coding"), exists=True)
    for note in data["notes"]:
        meta = {"type": note["type"], "title": note["title"], "summary": note["summary"],
                "created": "2026-11-29T10:00:00Z", "updated": "2026-11-29T10:00:00Z"}
        add_note(state, note["file"], render_new_note(meta, note["body"]))
    sets = {"short prompts": data["prompts"]}
    if long_path.is_file():
        sets["prompts of several sentences"] = json.loads(long_path.read_text("utf-8"))["prompts"]
    print(f"\n### Coding-agent set: {len(state.notes)} notes\n")
    print("| prompts | with a relevant note | R@1 | R@5 | recall returns a relevant note "
          "| ... and an unrelated one | relevant prompts abstained | without one "
          "| unrelated prompts abstained |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, prompts in sets.items():
        print(f"| {name} | " + " | ".join(_coding_cells(state, prompts)) + " |")


def _coding_cells(state: StoreState, prompts: list[dict[str, Any]]) -> list[str]:
    at: collections.Counter[int] = collections.Counter()
    answerable = unrelated = abstained = false_abstain = recalled_hit = extra = 0
    for prompt in prompts:
        found = search_states([state], prompt["text"], None, limit=10)
        chosen = [h.filename for h in select(found).notes]
        names = [h.filename for h in found.hits]
        if not prompt["relevant"]:
            unrelated += 1
            abstained += not chosen
            continue
        answerable += 1
        wanted = set(prompt["relevant"])
        at.update(k for k in KS if wanted & set(names[:k]))
        false_abstain += not chosen
        recalled_hit += bool(wanted & set(chosen))
        extra += bool(set(chosen) - wanted)
    return [str(answerable), f"{at[1] / answerable:.3f}", f"{at[5] / answerable:.3f}",
            f"{recalled_hit / answerable:.3f}", f"{extra / answerable:.0%}",
            f"{false_abstain / answerable:.0%}", str(unrelated), f"{abstained / unrelated:.0%}"]


# ---------------------------------------------------------------------- dated set


def dated_table(path: Path) -> None:
    """Recall on prompts that name a time, asked through the CLI at the set's `now`."""
    data = json.loads(path.read_text("utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        store = base / "project"
        store.mkdir()
        for note in data["notes"]:
            meta = {key: note[key] for key in ("type", "title", "summary", "created", "updated")}
            (store / note["file"]).write_bytes(render_new_note(meta, note["body"]))
        env = {"MEMCLI_PROJECT_STORE": str(store), "MEMCLI_USER_STORE": str(base / "user"),
               "MEMCLI_HOME": str(base / "home"), "HOME": str(base), "PATH": "/usr/bin:/bin",
               "MEMCLI_NOW": data["now"]}
        answers = [_recalled(env, prompt["text"]) for prompt in data["prompts"]]
    print(f"\n### Dated set: {len(data['notes'])} notes, {len(data['prompts'])} prompts, "
          f"asked at {data['now']}\n")
    print("| prompts | with a relevant note | returns one | returns all of them | precision "
          "| abstained wrongly | without one | abstained |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|")
    kinds = [("a time alone", {"time"}), ("a time and a topic", {"time+topic"}),
             ("no time", {"topic"}), ("all", {"time", "time+topic", "topic"})]
    for name, wanted in kinds:
        pairs = [(p, a) for p, a in zip(data["prompts"], answers, strict=True)
                 if p["kind"] in wanted]
        print(f"| {name} | " + " | ".join(_dated_cells(pairs)) + " |")


def _recalled(env: dict[str, str], prompt: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "memcli", "recall", "--json", prompt], env=env,
                          check=True, capture_output=True, cwd=ROOT)
    return [note["file"] for note in json.loads(done.stdout)["notes"]]


def _dated_cells(pairs: list[tuple[dict[str, object], list[str]]]) -> list[str]:
    answerable = [(set(p["relevant"]), set(a)) for p, a in pairs  # type: ignore[call-overload]
                  if p["relevant"]]
    unrelated = [a for p, a in pairs if not p["relevant"]]
    returned = [(wanted, got) for wanted, got in answerable if got]

    def share(count: float, total: int) -> str:
        return f"{count / total:.0%}" if total else "-"

    return [str(len(answerable)), share(sum(bool(w & g) for w, g in answerable), len(answerable)),
            share(sum(w <= g for w, g in answerable), len(answerable)),
            share(sum(len(w & g) / len(g) for w, g in returned), len(returned)),
            share(len(answerable) - len(returned), len(answerable)),
            str(len(unrelated)), share(sum(not a for a in unrelated), len(unrelated))]


# ---------------------------------------------------------------------- latency


def latency(notes: int, rounds: int) -> None:
    import genstore  # a sibling script

    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        env = {"MEMCLI_PROJECT_STORE": str(genstore.write_store(base / "p", notes, "project")),
               "MEMCLI_USER_STORE": str(genstore.write_store(base / "u", notes, "user")),
               "MEMCLI_HOME": str(base / "home"), "HOME": str(base), "PATH": "/usr/bin:/bin"}
        memcli = [sys.executable, "-m", "memcli"]
        subprocess.run([*memcli, "index"], env=env, check=True, capture_output=True)
        prompt = json.dumps({"session_id": "s", "transcript_path": "", "cwd": tmp,
                             "hook_event_name": "UserPromptSubmit",
                             "prompt": "how do we rotate the secret backup?"})
        commands = {"context": ["context"],
                    "search": ["search", "retry timeout for the deploy queue"],
                    "recall": ["recall", "how do we rotate the secret backup?"],
                    # ~830 notes a level in that month: the 50 dated candidates' worst case.
                    "recall (names a month)": ["recall", "what did we rotate in March 2026?"],
                    "hook claude-code (UserPromptSubmit)": ["hook", "claude-code"],
                    "hook codex (UserPromptSubmit)": ["hook", "codex"]}

        peaks: dict[str, float] = {}

        def timed(args: list[str]) -> tuple[float, float]:
            """Wall and CPU seconds of one command (CPU: what a busy machine does not blur);
            its own peak memory (MiB) kept in PEAKS, the largest of its runs."""
            start = time.perf_counter()
            child = subprocess.Popen([*memcli, *args], env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            assert child.stdin is not None
            child.stdin.write(prompt.encode() if args[0] == "hook" else b"")
            child.stdin.close()
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
            if status:
                sys.exit(f"recall.py: memcli {args[0]} failed ({status})")
            peak = usage.ru_maxrss / 1024  # KiB on Linux
            peaks[args[0]] = max(peaks.get(args[0], 0.0), peak)
            return wall, usage.ru_utime + usage.ru_stime

        first = timed(commands["search"])
        peak = peaks.pop("search")  # the first search's own: the one that builds the cache
        store = _size(base / "p") + _size(base / "u")
        cache = _size(base / "home" / "cache" / "search")
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, args in commands.items():
                times[name].append(timed(args))
        # memcli's own write of one note into the warm cache's store, then a search: what an
        # agent's next prompt after `extract --apply` costs.
        after_write = []
        for number in range(rounds):
            turn = base / f"turn-{number}.jsonl"
            turn.write_text(_one_fact_turn(number), "utf-8")
            subprocess.run([*memcli, "extract", "--apply", "--input", str(turn)], env=env,
                           check=True, capture_output=True)
            after_write.append(timed(commands["search"]))
        times["search after `extract --apply` of one note"] = after_write
    context = [statistics.median(t[i] for t in times["context"]) for i in (0, 1)]
    print(f"\n### Latency: {notes:,} notes per level, median of {rounds} rounds\n")
    print("| command | seconds | ratio to context | CPU seconds | CPU ratio to context |\n"
          "|---|---:|---:|---:|---:|")
    rows = [("first search (builds the index)", [first]), *times.items()]
    for name, values in rows:
        wall, cpu = (statistics.median(v[i] for v in values) for i in (0, 1))
        print(f"| {name} | {wall:.2f} | {wall / context[0]:.2f} | {cpu:.2f} "
              f"| {cpu / context[1]:.2f} |")
    print(f"\nThe cache: {cache / 1e6:.1f} MB for {store / 1e6:.1f} MB of notes "
          f"({cache / store:.2f}x); the first search's peak memory {peak:.0f} MiB (each "
          "command's, the largest of its runs: "
          + ", ".join(f"{name} {mib:.0f} MiB" for name, mib in peaks.items()) + ").")


def _one_fact_turn(number: int) -> str:
    """A Claude Code turn in which the person states one new fact (the rules extract it)."""
    words = ("zebra", "walnut", "quartz", "falcon", "maple", "cobalt", "harbor")[number % 7]
    said = (f"Remember this: the {words} mailbox {number} gets the nightly retry reports of "
            "the ingest worker.")
    records = [
        {"type": "user", "uuid": "u1", "parentUuid": None, "sessionId": "s1",
         "timestamp": "2026-12-07T10:00:00Z", "cwd": "/workspace/bench",
         "message": {"role": "user", "content": said}},
        {"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s1",
         "timestamp": "2026-12-07T10:00:05Z", "cwd": "/workspace/bench",
         "message": {"role": "assistant", "content": [{"type": "text", "text": "Noted."}]}}]
    return "".join(json.dumps(r) + "\n" for r in records)


def _size(folder: Path) -> int:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", action="store_true")
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--grid", action="store_true")
    parser.add_argument("--heldout", action="store_true",
                        help="also the held-out coding set: aggregate figures only, never to "
                             "tune on (benchmarks/data/RECALL-HELDOUT.md)")
    parser.add_argument("--notes", type=int, default=10_000, help="notes per level (latency)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--locomo", type=Path, default=LOCOMO,
                        help="locomo-dev.json (default: ../shared/data/locomo/ beside the repo; "
                             "a git worktree elsewhere names it here)")
    parser.add_argument("--by-conversation", action="store_true",
                        help="memcli's LoCoMo figures per conversation alone (the folds)")
    parser.add_argument("--latency-only", action="store_true",
                        help="the latency table alone (no LoCoMo, no coding sets)")
    args = parser.parse_args()
    if args.latency_only:
        latency(args.notes, args.rounds)
        return
    if not args.locomo.is_file():
        sys.exit(f"recall.py: LoCoMo data not found at {args.locomo} (shared/ beside the "
                 "repository, or --locomo)")
    print(f"Token counts: {TOKENIZER}.")
    if args.by_conversation:
        conversation_table(load_locomo(args.locomo))
        return
    locomo_tables(load_locomo(args.locomo), args.sweep, args.grid)
    if CODING.is_file():
        coding_table(CODING, CODING_LONG)
    import recall_coding  # a sibling script

    sets = {"development (recall-dev.json)": DEV, "second development (recall-dev2.json)": DEV2,
            "third development (recall-dev3.json)": DEV3,
            "fourth development (recall-dev4.json, a check)": DEV4,
            "recall-coding.json": CODING}
    if args.heldout:
        sets["held out (recall-heldout.json)"] = HELDOUT
    recall_coding.table(sets)
    if DATED.is_file():
        dated_table(DATED)
    if args.latency:
        latency(args.notes, args.rounds)


if __name__ == "__main__":
    main()
