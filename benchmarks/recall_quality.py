"""Recall's quality on every development set at once: the figures a change to the recall
decision is judged by (docs/recall.md, round 6 of issue 28).

    python benchmarks/recall_quality.py [--locomo PATH] [--no-locomo]

For each coding development set (`recall-dev.json`, `recall-dev2.json`, `recall-dev3.json`,
`recall-dev-unrelated.json` against recall-dev.json's notes, `recall-coding.json` with its
prompts of several sentences): `recall` relevant (answerable prompts it hands a relevant note
for), quiet (unrelated prompts it hands nothing for), "extra" (answerable prompts it hands a
note that is not relevant, beside or instead of a relevant one), precision (the share of the
notes handed for answerable prompts that are relevant), search's hit@3; then the sets pooled
(prompt by prompt). `recall-dev4.json` is a check, printed on its own row and never pooled:
its aggregates only. LoCoMo's development half, conversation by conversation (the folds):
search R@5, `recall` within 1000 tokens, adversarial questions abstained. The held-out sets
are never read here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import recall as bench  # noqa: E402
import recall_coding  # noqa: E402

from memcli.search.engine import SearchResult, search_states  # noqa: E402
from memcli.search.recall import select  # noqa: E402

DATA = ROOT / "benchmarks" / "data"
DEV4 = bench.DEV4
Asked = list[tuple[dict[str, Any], SearchResult]]


def asked(data: dict[str, Any], scope_data: dict[str, Any] | None = None) -> Asked:
    """Each prompt of DATA searched in its scope (SCOPE_DATA's notes, when it has none)."""
    by_scope = recall_coding.scopes(scope_data or data)
    return [(p, search_states(by_scope[p.get("project")].states, p["text"], None, limit=None))
            for p in data["prompts"]]


@dataclass
class Tally:
    answerable: int = 0
    relevant: int = 0
    extra: int = 0
    handed: int = 0
    right: int = 0
    top3: int = 0
    unrelated: int = 0
    quiet: int = 0

    def add(self, other: Tally) -> None:
        for name in vars(self):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    def cells(self) -> list[str]:
        def share(part: int, whole: int) -> str:
            return f"{part / whole:.3f}" if whole else "-"
        return [str(self.answerable), share(self.relevant, self.answerable),
                share(self.extra, self.answerable), share(self.right, self.handed),
                share(self.top3, self.answerable), str(self.unrelated),
                share(self.quiet, self.unrelated)]


def tally(pairs: Asked) -> Tally:
    out = Tally()
    for prompt, found in pairs:
        chosen = [h.filename for h in select(found).notes]
        wanted = set(prompt["relevant"])
        if not wanted:
            out.unrelated += 1
            out.quiet += not chosen
            continue
        out.answerable += 1
        out.relevant += bool(wanted & set(chosen))
        out.extra += bool(set(chosen) - wanted)
        out.handed += len(chosen)
        out.right += len(wanted & set(chosen))
        out.top3 += bool(wanted & {h.filename for h in found.hits[:3]})
    return out


def coding_sets() -> dict[str, Asked]:
    def load(name: str) -> dict[str, Any]:
        return json.loads((DATA / name).read_text("utf-8"))

    dev, coding = load("recall-dev.json"), load("recall-coding.json")
    return {"recall-dev.json": asked(dev), "recall-dev2.json": asked(load("recall-dev2.json")),
            "recall-dev3.json": asked(load("recall-dev3.json")),
            "recall-dev-unrelated.json": asked(load("recall-dev-unrelated.json"), dev),
            "recall-coding.json": asked(coding),
            "recall-coding-long.json": asked(load("recall-coding-long.json"), coding)}


def coding_table(sets: dict[str, Asked], check: Asked | None) -> None:
    print("| set | answerable | recall relevant | extra | precision | hit@3 | unrelated "
          "| quiet |\n|---|---:|---:|---:|---:|---:|---:|---:|")
    pooled = Tally()
    for name, pairs in sets.items():
        one = tally(pairs)
        pooled.add(one)
        print(f"| {name} | " + " | ".join(one.cells()) + " |")
    print("| development sets pooled | " + " | ".join(pooled.cells()) + " |")
    if check is not None:
        print("| check: recall-dev4.json (aggregates only) | "
              + " | ".join(tally(check).cells()) + " |")


def locomo_table(path: Path) -> None:
    print("\n| conversation | R@5 | recall: R in 1000 tok | cat-5 abstained |\n"
          "|---|---:|---:|---:|")
    everything: list[tuple[bench.Corpus, Any]] = []
    for corpus in bench.load_locomo(path):
        results = [(corpus, bench.memcli_results(corpus))]
        everything += results
        _locomo_row(corpus.name, results)
    _locomo_row("whole half", everything)


def _locomo_row(name: str, results: Sequence[tuple[bench.Corpus, Any]]) -> None:
    ranking, gated = bench.score_memcli(results, gate=False), bench.score_memcli(results)
    print(f"| {name} | {ranking.at[5]:.3f} | {gated.budget[1000]:.3f} "
          f"| {gated.abstain5:.1%} |", flush=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=bench.LOCOMO)
    parser.add_argument("--no-locomo", action="store_true")
    args = parser.parse_args(argv)
    coding_table(coding_sets(), asked(json.loads(DEV4.read_text("utf-8")))
                 if DEV4.is_file() else None)
    if not args.no_locomo:
        locomo_table(args.locomo)


if __name__ == "__main__":
    main()
