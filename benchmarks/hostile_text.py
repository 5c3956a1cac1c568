"""Hostile text stays linear: each shape at 10k, 100k and 1M characters through the rules
extractor, the transcript reader and the reply parser, and the growth of the time.

    python benchmarks/hostile_text.py            # every shape, up to 1M characters
    python benchmarks/hostile_text.py --quick    # up to 100k characters
    python benchmarks/hostile_text.py --only reply
    python benchmarks/hostile_text.py --only rules --shape U+201C

A linear path takes about 10x the time for 10x the input; the target is at most 12x
(measured in CPU time, as the best of a few runs, so that a busy machine moves it less:
time spent waiting for a core is not the path's). A shape whose
size that takes longer than ``--give-up`` seconds is stopped (each size runs in a child
process) and the shape reported as superlinear.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import itertools
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memcli.messages import Message

TARGET = 12.0
_TODAY = datetime.date(2026, 11, 30)


def _fill(unit: str, size: int, head: str = "", tail: str = "") -> str:
    body = size - len(head) - len(tail)
    return head + (unit * (body // len(unit) + 1))[: max(0, body)] + tail


def _message(text: str) -> str:
    return json.dumps({"role": "user", "content": text}) + "\n"


# --- shapes: name -> text of a given size ------------------------------------------------

RULES_SHAPES: dict[str, Callable[[int], str]] = {
    "spaces in a cue sentence": lambda n: _fill(" ", n, "Remember: always", "use make check."),
    "tabs in a cue sentence": lambda n: _fill("\t", n, "Remember: always", "use make check."),
    "curly quotes": lambda n: _fill("\u201cmake\u201d \u2018x\u2019 ", n, "Remember: use "),
    "Chinese with ASCII full stops": lambda n: _fill("记住用make检查代码.", n),
    "unclosed <system-reminder>": lambda n: _fill("<system-reminder> remember use make ", n),
    "many cue sentences": lambda n: _fill("Remember: use make check. ", n),
    "one long word": lambda n: _fill("a", n, "Remember: ", " ok."),
    "spaces in a prohibition": lambda n: _fill(" ", n, "Don't edit the", "file, it's vendored."),
    "a run of backticks": lambda n: _fill("`", n, "Remember: use ", " ok."),
    "stacked cues": lambda n: _fill("记住，", n),
    "stacked fillers": lambda n: _fill("ok, ", n, "", "always use make check."),
    "spaces after a command's 'use'": lambda n: _fill(" ", n, "Remember: use", "use x."),
    "spaces after 用": lambda n: _fill(" ", n, "记住用", "用 x。"),
    "spaces in a reference": lambda n: _fill(" ", n, "Remember: the", "the https://x.io/a x."),
    "spaces in 'for …, see'": lambda n: _fill(" ", n, "For", "for https://x.io/a."),
    # The rest of tests/test_hostile_text.py's shapes (their timing moved here, issue 25).
    "spaces before a choice's reason": lambda n: _fill(
        " ", n, "use npm instead of pnpm", ", the box has no pnpm"),
    "spaces before 'is documented at'": lambda n: _fill(
        " ", n, "the api", " is documented at https://api.example.com/docs"),
    "spaces before a habit's moment": lambda n: _fill(" ", n, "Run x", "before committing."),
    "commas before a prohibition's place": lambda n: _fill(", x", n, "Don't add x",
                                                           " to commits."),
    "commas before a prohibition's alternative": lambda n: _fill(", x", n, "Don't test x",
                                                                 ", use y."),
    "spaces in a port fact": lambda n: _fill(" ", n, "locally", "the api runs on port 3000."),
    "spaces after 'I said'": lambda n: _fill(" ", n, "I said", "use pnpm."),
    "spaces before 'must'": lambda n: _fill(" ", n, "Files", "must have CRLF line endings."),
    "spaces after 'prefer'": lambda n: _fill(" ", n, "prefer", "small commits."),
    "spaces in 'my editor is'": lambda n: _fill(" ", n, "my editor", "is vim."),
    "spaces in a generic imperative": lambda n: _fill(" ", n, "Prefix", "branches with feat/."),
    "spaces before a measure that is not one": lambda n: _fill(" ", n, "Indent", "4 x."),
    "a long word as a generic object": lambda n: _fill("a", n, "Sort ", "s."),
    "spaces in a kind's 用": lambda n: _fill(" ", n, "包管理器用", "yarn"),
    "many generic imperatives in a list": lambda n: _fill("- Sort imports alphabetically.\n", n),
    # Opening quotation marks never closed: each read to the end of the line again (issue 25:
    # 7.5k of U+201C took 1.9 s, 30k 10.3 s).
    "a run of U+201C": lambda n: _fill("\u201c", n),
    "U+201C runs in a cue sentence": lambda n: _fill("\u201c", n, "Remember: use ", " ok."),
    "a run of 「": lambda n: _fill("「", n, "记住用"),
}
TRANSCRIPT_SHAPES: dict[str, Callable[[int], str]] = {
    "one huge message": lambda n: json.dumps(
        {"role": "user", "content": _fill("word ", n - 40)}) + "\n",
    "many short records": lambda n: _fill(
        json.dumps({"role": "user", "content": "hi"}) + "\n", n),
    "broken JSON lines": lambda n: _fill('{"role": "user", "content": "x\n', n),
    "open brackets": lambda n: _fill("[", n),
    "open braces and quotes": lambda n: _fill('{"', n),
    "one line, no newline": lambda n: _fill("x", n, '{"role": "user", "content": "'),
    "wrapper tags never closed": lambda n: _message(_fill("<system-reminder ", n - 40)),
    "many Codex request markers": lambda n: _message(_fill("## My request for Codex: <x ", n - 40)),
    "many closed wrappers": lambda n: _message(
        _fill("<system-reminder>x</system-reminder> hi ", n - 40)),
    "many text parts": lambda n: json.dumps(
        {"role": "user", "content": [{"type": "text", "text": "x"}] * (n // 30)}) + "\n",
}
REPLY_SHAPES: dict[str, Callable[[int], str]] = {
    "open brackets": lambda n: _fill("[", n),
    "unterminated string of brackets": lambda n: _fill("[{", n, '{"a": "'),
    "nested unterminated objects": lambda n: _fill('{"k": [', n),
    "think tags and values": lambda n: _fill("</think> [{}] ", n),
    "brackets in prose": lambda n: _fill("see [1] and {x} ", n),
    "many broken starts": lambda n: _fill('{"a": 1,, ', n),
    "valid reply after noise": lambda n: _fill("[x] ", n - 40, "", '{"operations": []}'),
}


def _rules(text: str) -> None:
    from memcli.extraction.rules import extract_rules

    extract_rules([Message("user", text)], [], today=_TODAY)


def _transcript(text: str) -> None:
    from memcli.transcripts import read_transcript

    read_transcript(text)


def _reply(text: str) -> None:
    from memcli.errors import ProviderError
    from memcli.operations.reply import parse_reply

    with contextlib.suppress(ProviderError):
        parse_reply(text)


PATHS = {"rules": (_rules, RULES_SHAPES), "transcripts": (_transcript, TRANSCRIPT_SHAPES),
         "reply": (_reply, REPLY_SHAPES)}


def _time(run: Callable[[str], None], text: str, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        run(text)
        best = min(best, time.process_time() - start)
    return best


def _one_case(path: str, name: str, size: int) -> float:
    run, shapes = PATHS[path]
    run("warm up")
    # Two rounds at least: the first run at 1M pays for fresh memory a second one reuses.
    return _time(run, shapes[name](size), 3 if size <= 100_000 else 2)


def measure(path: str, name: str, sizes: list[int],
            give_up: float) -> tuple[list[tuple[int, float]], bool]:
    """Each size in a child process, so that a superlinear case can be stopped."""
    import subprocess

    rows: list[tuple[int, float]] = []
    for size in sizes:
        try:
            done = subprocess.run([sys.executable, __file__, "--case", path, name, str(size)],
                                  capture_output=True, text=True, timeout=give_up, check=True)
        except subprocess.TimeoutExpired:
            rows.append((size, float("inf")))
            return rows, True
        rows.append((size, float(done.stdout)))
    return rows, False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--only", choices=sorted(PATHS))
    parser.add_argument("--shape", help="only the shapes whose name holds this text")
    parser.add_argument("--give-up", type=float, default=60.0,
                        help="seconds one size may take before the shape is called superlinear")
    parser.add_argument("--case", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        print(_one_case(args.case[0], args.case[1], int(args.case[2])))
        return 0
    sizes = [10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000]
    failed = []
    for path, (_, shapes) in PATHS.items():
        if args.only and path != args.only:
            continue
        for name in shapes:
            if args.shape and args.shape not in name:
                continue
            rows, gave_up = measure(path, name, sizes, args.give_up)
            growth = [b[1] / max(a[1], 1e-6) for a, b in itertools.pairwise(rows)]
            # Below a millisecond, timer noise is the growth: such a step is linear enough.
            judged = [g for g, (_, sec) in zip(growth, rows[1:], strict=False) if sec > 0.002]
            ok = not gave_up and all(g <= TARGET for g in judged)
            times = "  ".join(f"{size // 1000:>5}k {sec * 1000:9.1f} ms" if sec != float("inf")
                              else f"{size // 1000:>5}k > {args.give_up:g} s" for size, sec in rows)
            grow = " ".join(f"x{g:.1f}" for g in growth) or "-"
            verdict = "linear" if ok else ("SUPERLINEAR (gave up)" if gave_up else "SUPERLINEAR")
            print(f"{path:11} {name:34} {times}  growth {grow:12} {verdict}", flush=True)
            if not ok:
                failed.append(f"{path}: {name}")
    print(f"{'all shapes linear' if not failed else 'superlinear: ' + '; '.join(failed)} "
          f"(target: 10x input <= {TARGET:g}x time)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
