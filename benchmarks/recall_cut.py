"""The recall cut, swept on development data: threshold, trim share, lone-word rule.

    python benchmarks/recall_cut.py [--locomo PATH]

Every prompt is searched once; `recall`'s cut (:func:`memcli.search.recall.select`) is then
applied to the same candidates with each setting. Tuning material only: LoCoMo's tuning part
(conversations 1-3), `recall-dev.json` and `recall-dev-unrelated.json`; the check columns
(`recall-dev2.json`, which flatters the vocabulary, and LoCoMo's held part) are printed apart
and are not what a setting is chosen by. The held-out coding set is never read here.
"dev precision": the share of the notes recalled for answerable prompts that are relevant.
The trim swept is TRIM_SHARE, which applies after a first note covering less than
STRONG_COVERAGE of the prompt (STRONG_TRIM_SHARE after one that covers more; round 6 of
issue 28). `benchmarks/recall_quality.py` prints every development set's figures at once.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import recall as bench  # noqa: E402
import recall_coding  # noqa: E402

from memcli.search import recall  # noqa: E402
from memcli.search.engine import SearchResult, search_states  # noqa: E402
from memcli.search.recall import select  # noqa: E402

UNRELATED = ROOT / "benchmarks" / "data" / "recall-dev-unrelated.json"

Asked = list[tuple[dict[str, Any], SearchResult]]


def coding(data: dict[str, Any], scope_data: dict[str, Any] | None = None) -> Asked:
    """Each prompt of DATA searched in its scope (SCOPE_DATA's notes, when it has none)."""
    by_scope = recall_coding.scopes(scope_data or data)
    return [(p, search_states(by_scope[p.get("project")].states, p["text"], None, limit=None))
            for p in data["prompts"]]


def coding_figures(asked: Asked, threshold: float) -> tuple[float, float, float]:
    """(recall relevant on answerable prompts, quiet on unrelated ones, the share of the notes
    recalled for answerable prompts that are relevant); 0 for a set without such prompts."""
    good = answerable = quiet = unrelated = right = handed = 0
    for prompt, found in asked:
        chosen = {h.filename for h in select(found, threshold=threshold).notes}
        if prompt["relevant"]:
            answerable += 1
            good += bool(chosen & set(prompt["relevant"]))
            right += len(chosen & set(prompt["relevant"]))
            handed += len(chosen)
        else:
            unrelated += 1
            quiet += not chosen
    return (good / max(answerable, 1), quiet / max(unrelated, 1), right / max(handed, 1))


@contextmanager
def setting(**values: float) -> Iterator[None]:
    """Recall's cut constants set to VALUES for the block (a benchmark, not the product)."""
    old = {k: getattr(recall, k) for k in values}
    for k, v in values.items():
        setattr(recall, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(recall, k, v)


def cells(sets: dict[str, Asked], tune: bench.Results, held: bench.Results,
          threshold: float) -> list[str]:
    out = []
    dev_rel, dev_quiet, dev_precision = coding_figures(sets["dev"], threshold)
    own_quiet = coding_figures(sets["unrelated"], threshold)[1]
    dev2_rel, dev2_quiet, _ = coding_figures(sets["dev2"], threshold)
    t = bench.score_memcli(tune, threshold)
    h = bench.score_memcli(held, threshold)
    for value in (dev_rel, dev_quiet, dev_precision, own_quiet):
        out.append(f"{value:.3f}")
    out += [f"{t.budget[1000]:.3f}", f"{t.abstain5:.1%}",
            f"{dev2_rel:.3f}", f"{dev2_quiet:.3f}", f"{h.budget[1000]:.3f}", f"{h.abstain5:.1%}"]
    return out


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--locomo", type=Path, default=bench.LOCOMO)
    parser.add_argument("--thresholds", default="0.2,0.25,0.3,0.35")
    parser.add_argument("--trims", default="0.5,0.6,0.7")
    parser.add_argument("--lone", default="3,4,99", help="LONE_WORD_ASKED values")
    args = parser.parse_args(argv)
    dev = json.loads(bench.DEV.read_text("utf-8"))
    sets = {"dev": coding(dev),
            "unrelated": coding(json.loads(UNRELATED.read_text("utf-8")), dev),
            "dev2": coding(json.loads(bench.DEV2.read_text("utf-8")))}
    corpora = bench.load_locomo(args.locomo)
    tune = [(c, bench.memcli_results(c)) for c in corpora if c.name in bench.TUNE]
    held = [(c, bench.memcli_results(c)) for c in corpora if c.name not in bench.TUNE]
    print("| threshold | trim | lone-word asked | dev relevant | dev quiet | dev precision "
          "| own unrelated quiet "
          "| LoCoMo tuning R in 1000 | tuning cat-5 abstained | check: dev2 relevant "
          "| dev2 quiet | LoCoMo held R in 1000 | held cat-5 abstained |\n"
          "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for threshold, trim, lone in itertools.product(
            map(float, args.thresholds.split(",")), map(float, args.trims.split(",")),
            map(int, args.lone.split(","))):
        with setting(TRIM_SHARE=trim, LONE_WORD_ASKED=lone):
            row = cells(sets, tune, held, threshold)
        print(f"| {threshold} | {trim} | {lone} | " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
