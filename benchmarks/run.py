"""memcli performance benchmark: one run, ratios against baselines measured in that run.

    python benchmarks/run.py            # full run (a few minutes on 2 cores)
    python benchmarks/run.py --quick    # tiny stores, few repetitions (the smoke test)

Shared machines move absolute times by 20-30 %, so start-up targets are ratios against
`python -c pass` / `python -c "import typer"` timed in the same rounds; only the scale and
write targets are absolute (seconds, MB). Commands of one group run interleaved (round
robin), so a burst of load hits all of them alike; a row's figure is the median of its
rounds, and a ratio between rows of one group the median of the per-round ratios.

Prints a table and writes benchmarks/results/<timestamp>.json; the table compares each
ratio with the newest earlier result file, when there is one. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import http.server
import itertools
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import genstore  # a sibling script, not a package

RESULTS = Path(__file__).resolve().parent / "results"
GROUPS = ("startup", "scale", "huge", "writes")
MB = 1024 * 1024
REPLY = {"operations": [{
    "action": "create", "level": "project", "type": "project_knowledge",
    "title": "Linters run before the tests",
    "content": "We always run the linters before the tests.",
    "reason": "the user said so twice",
}]}
# Every run gets a rebuilt environment, so a developer's own settings, keys, stores or
# Python flags (PYTHONDONTWRITEBYTECODE, PYTHONPROFILEIMPORTTIME) never leak into a figure.
DROPPED_ENV_PREFIXES = ("MEMCLI_", "OPENAI_", "ANTHROPIC_", "PYTHON")
MINIMAL_TYPER_APP = '''\
import typer

app = typer.Typer(add_completion=False, rich_markup_mode=None, no_args_is_help=True)


@app.callback()
def main(verbose: bool = typer.Option(False, help="Say more.")) -> None:
    """A typer program as small as a real one can be: a group of two commands."""


@app.command()
def hello(name: str = typer.Argument("world", help="Who.")) -> None:
    """Say hello."""
    print("hello", name)


@app.command()
def bye() -> None:
    """Say goodbye."""


app()
'''
# The raw floor of a store command: a script that only reads every file of both stores
# (pathlib, as a short script would) and finds the frontmatter with str.find. The scale
# targets are ratios against it, timed in the same rounds. The bare floor does the same with
# os.scandir and bytes: the least any Python program can do, shown for comparison.
RAW_FLOOR = '''\
import sys
from pathlib import Path
found = 0
for folder in sys.argv[1:]:
    for path in sorted(Path(folder).iterdir()):
        if path.name.startswith("."):
            continue  # the store's history folder
        text = path.read_text("utf-8")
        if text.startswith("---\\n") and text.find("\\n---\\n", 3) > 0:
            found += 1
print(found)
'''
BARE_FLOOR = '''\
import os, sys
found = 0
for folder in sys.argv[1:]:
    for entry in os.scandir(folder):
        if entry.name.startswith("."):
            continue
        with open(entry.path, "rb") as handle:
            text = handle.read().decode("utf-8")
        if text.startswith("---\\n") and text.find("\\n---\\n", 3) > 0:
            found += 1
print(found)
'''


@dataclass(frozen=True)
class Sizes:
    cold: int  # notes per level of the cold-start store
    small: int
    large: int
    huge: int  # notes per level of the store the growth and memory targets use
    creates: int  # creates in the one apply document
    adds: int  # sequential `memcli add` runs
    session: int  # messages in the extracted session
    startup_reps: int
    scale_reps: int
    apply_reps: int
    huge_reps: int


FULL = Sizes(cold=50, small=1000, large=10000, huge=100000, creates=1000, adds=100,
             session=200, startup_reps=21, scale_reps=7, apply_reps=3, huge_reps=2)
QUICK = Sizes(cold=10, small=20, large=200, huge=2000, creates=20, adds=3, session=20,
              startup_reps=3, scale_reps=2, apply_reps=1, huge_reps=1)


# (row id, label, code) of the floor rows: imports only, no work.
FLOORS = (
    ("import_cli", 'python -c "import memcli.cli"', "import memcli.cli"),
    # A command imports only its own command module (memcli.cli.main), so the floors name it.
    ("lint_libs", "import lint's libraries: typer, ahocorasick-rs",
     "import typer, ahocorasick_rs"),
    ("lint_mods", "import every module lint loads, run nothing",
     "import memcli.cli.lint_command, memcli.commands.lint, memcli.render.lint"),
    ("extract_libs", "import extract's libraries: lint's + httpx, pyyaml, ...",
     "import typer, yaml, httpx, httpx_sse, stamina"),
    ("extract_mods", "import every module extract loads, run nothing",
     "import memcli.cli.extract_commands, memcli.commands.apply, memcli.commands.extract, "
     "memcli.transcripts, memcli.safety.redact, memcli.extraction.prompt, "
     "memcli.operations.model, memcli.providers.openai, memcli.providers._http, "
     "memcli.operations.reply, memcli.render.extraction"),
)


@dataclass
class Row:
    id: str
    label: str
    group: str  # the heading it is shown under
    times: list[float] = field(default_factory=list)  # seconds, one per round
    batch: int = -1  # rows of one round-robin batch have their samples paired by round
    rss: list[int] = field(default_factory=list)  # bytes, peak of each run
    error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def median(self) -> float | None:
        return statistics.median(self.times) if self.times and not self.error else None

    @property
    def peak_rss(self) -> int | None:
        return max(self.rss) if self.rss and not self.error else None


@dataclass
class Case:
    """One command line timed in a group; ``before`` runs untimed ahead of each run."""

    row: Row
    argv: list[str]
    env: dict[str, str]
    cwd: Path
    stdin: Path | None = None
    before: Callable[[int], None] | None = None
    ok_codes: tuple[int, ...] = (0,)


# --------------------------------------------------------------------------- running


# Runs each command under a small stdlib-only Python that times it and reads its rusage.
# Measured from this process instead, ru_maxrss would never drop below this process's own
# RSS: Linux folds the parent's memory into a child's peak at fork/exec time.
TIMER = """\
import os, sys, time
out, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
elapsed = time.perf_counter() - start
scale = 1 if sys.platform == "darwin" else 1024
with open(out, "w") as handle:
    handle.write(f"{elapsed} {usage.ru_maxrss * scale} {os.waitstatus_to_exitcode(status)}")
"""


def run_once(case: Case, scratch: Path) -> tuple[float, int | None, int, str]:
    """Wall time, peak RSS (bytes), exit status and stderr of one run of a case."""
    timed = hasattr(os, "posix_spawnp") and hasattr(os, "wait4")
    result = scratch / "timer.txt"
    argv = [sys.executable, "-I", "-S", "-c", TIMER, str(result), *case.argv] if timed else (
        case.argv)
    with contextlib.ExitStack() as stack:
        stdin = stack.enter_context(open(case.stdin, "rb")) if case.stdin else subprocess.DEVNULL
        err = stack.enter_context(open(scratch / "stderr.txt", "w+b"))
        start = time.perf_counter()
        code = subprocess.run(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=err,
                              env=case.env, cwd=case.cwd).returncode
        elapsed = time.perf_counter() - start
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    rss: int | None = None
    if timed:
        if code != 0:
            return elapsed, None, code, text
        seconds, peak, status = result.read_text().split()
        elapsed, rss, code = float(seconds), int(peak), int(status)
    return elapsed, rss, code, text


def run_group(cases: Sequence[Case], reps: int, scratch: Path, progress: Progress) -> None:
    """Round robin: each round runs every case once, so load bursts hit all of them."""
    batch = next(_batches)
    for case in cases:
        case.row.batch = batch
    for rep in range(reps):
        for case in cases:
            if case.row.error:
                continue
            if case.before is not None:
                case.before(rep)
            elapsed, rss, code, err = run_once(case, scratch)
            if code not in case.ok_codes:
                case.row.error = f"exit {code}: {_last_lines(err)}"
                progress.say(f"  {case.row.label}: FAILED ({case.row.error})")
                continue
            case.row.times.append(elapsed)
            if rss is not None:
                case.row.rss.append(rss)
        progress.tick()


_batches = itertools.count()


def _last_lines(text: str, count: int = 3) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-count:]) or "(no message)"


class Progress:
    def __init__(self, quiet: bool) -> None:
        self.quiet = quiet
        self.started = time.monotonic()

    def say(self, text: str) -> None:
        if not self.quiet:
            print(f"[{time.monotonic() - self.started:6.1f}s] {text}", file=sys.stderr, flush=True)

    def tick(self) -> None:
        if not self.quiet:
            print(".", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        if not self.quiet:
            print(file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- environment


def launcher(explicit: str | None) -> tuple[list[str], str]:
    """How users start memcli: the console script pip generated next to this Python."""
    if explicit:
        return [explicit], "given with --memcli"
    bin_dir = Path(sys.executable).parent
    for name in ("memcli", "memcli.exe"):
        script = bin_dir / name
        if script.exists():
            return [str(script)], "console script (pip-generated)"
    return [sys.executable, "-m", "memcli"], "python -m memcli (no console script found)"


def base_env(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(DROPPED_ENV_PREFIXES)}
    # An installed package has its bytecode compiled (pip does it at install time); a
    # checkout run with PYTHONDONTWRITEBYTECODE would compile memcli on every start and
    # time the compiler. One private cache gives baselines and memcli the same footing.
    env["PYTHONPYCACHEPREFIX"] = str(scratch / "pycache")
    env.update({"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "80",
                "MEMCLI_HOME": str(scratch / "home"), "HOME": str(scratch / "home")})
    return env


def timed_child(argv: list[str], env: dict[str, str], cwd: Path,
                ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of one child process; an exit status
    not in OK stops the benchmark with the child's last words."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(argv[:3])}: exit {done.returncode}: {done.stderr[-400:]!r}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def stores_env(env: dict[str, str], root: Path) -> dict[str, str]:
    return {**env, "MEMCLI_PROJECT_STORE": str(root / "project"),
            "MEMCLI_USER_STORE": str(root / "user")}


class InstantServer:
    """An OpenAI-compatible /chat/completions that streams a fixed answer at once."""

    def __init__(self) -> None:
        body = b"".join(_sse_events(json.dumps(REPLY)))
        self.requests = 0
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                owner.requests += 1
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> InstantServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def _sse_events(text: str) -> Iterator[bytes]:
    base = {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 1,
            "model": "bench"}
    pieces = [text[i:i + 40] for i in range(0, len(text), 40)]
    for piece in pieces:
        chunk = {**base, "choices": [{"index": 0, "delta": {"content": piece},
                                      "finish_reason": None}]}
        yield f"data: {json.dumps(chunk)}\n\n".encode()
    done = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    usage = {**base, "choices": [], "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                              "total_tokens": 2}}
    yield f"data: {json.dumps(done)}\n\n".encode()
    yield f"data: {json.dumps(usage)}\n\n".encode()
    yield b"data: [DONE]\n\n"


# --------------------------------------------------------------------------- the benchmark


class Bench:
    def __init__(self, sizes: Sizes, memcli: list[str], scratch: Path, progress: Progress):
        self.sizes = sizes
        self.memcli = memcli
        self.scratch = scratch
        self.progress = progress
        self.env = base_env(scratch)
        self.work = scratch / "work"  # cwd of every run: no .git, no .memcli above it
        self.rows: dict[str, Row] = {}
        self.notes: list[str] = []

    def row(self, row_id: str, label: str, group: str) -> Row:
        self.rows[row_id] = Row(row_id, label, group)
        return self.rows[row_id]

    def case(self, row_id: str, label: str, group: str, args: list[str], *,
             env: dict[str, str] | None = None, python: bool = False, **kw: Any) -> Case:
        argv = [sys.executable, *args] if python else [*self.memcli, *args]
        return Case(self.row(row_id, label, group), argv, env or self.env, self.work, **kw)

    def setup(self, groups: set[str]) -> None:
        s = self.sizes
        self.work.mkdir(parents=True)
        (self.scratch / "home").mkdir()
        (self.scratch / "minimal_typer.py").write_text(MINIMAL_TYPER_APP)
        (self.scratch / "raw_floor.py").write_text(RAW_FLOOR)
        (self.scratch / "bare_floor.py").write_text(BARE_FLOOR)
        # Only the stores the chosen groups read: `--only startup` needs the 50-note one,
        # and generating 2 x 10,000 notes it does not read took longer than its rounds.
        wanted = {"startup": (s.cold,), "scale": (s.small, s.large), "huge": (s.large, s.huge)}
        sizes = tuple(sorted({n for g in groups for n in wanted.get(g, ())}))
        self.progress.say(f"generating stores of {', '.join(f'{n:,}' for n in sizes)} notes "
                          "per level")
        for size in sizes:
            root = self.scratch / f"store{size}"
            for level in ("project", "user"):
                genstore.write_store(root / level, size, level)
            self._check_call(["index"], stores_env(self.env, root))
        (self.scratch / "session.jsonl").write_text(genstore.claude_code_session(s.session),
                                                    "utf-8")
        # One turn (a prompt and its answer): what the Stop hook hands the extractor.
        (self.scratch / "turn.jsonl").write_text(genstore.claude_code_session(2), "utf-8")
        (self.scratch / "apply.json").write_text(genstore.apply_document(s.creates), "utf-8")
        # A SessionEnd whose last turn a Stop already queued: the hook has nothing to queue.
        (self.scratch / "session_end.json").write_text(json.dumps({
            "session_id": "bench", "transcript_path": str(self.scratch / "gone.jsonl"),
            "cwd": str(self.work), "hook_event_name": "SessionEnd",
            "reason": "prompt_input_exit"}), "utf-8")

    def _check_call(self, args: list[str], env: dict[str, str]) -> None:
        done = subprocess.run([*self.memcli, *args], env=env, cwd=self.work,
                              capture_output=True, text=True)
        if done.returncode != 0:
            self.notes.append(f"setup `memcli {' '.join(args)}` exited {done.returncode}: "
                              f"{_last_lines(done.stderr)}")

    def startup(self, server: InstantServer, timed: bool = True) -> None:
        s = self.sizes
        cold = stores_env(self.env, self.scratch / f"store{s.cold}")
        session = self.scratch / "session.jsonl"
        extract = ["extract", "--input", str(session), "--provider", "openai", "--model",
                   "bench", "--base-url", server.url, "--timeout", "30"]
        g = "startup"
        cases = [
            self.case("pass", "python -c pass", g, ["-c", "pass"], python=True),
            self.case("typer", 'python -c "import typer"', g, ["-c", "import typer"],
                      python=True),
            self.case("help", "memcli --help", g, ["--help"]),
            self.case("version", "memcli --version", g, ["--version"]),
            self.case("help_m", "python -m memcli --help", g, ["-m", "memcli", "--help"],
                      python=True),
            self.case("lint_cold", f"memcli lint, {s.cold} notes/level", g, ["lint"], env=cold),
            self.case("show_cold", f"memcli show, {s.cold} notes/level", g, ["show"], env=cold),
            self.case("context_cold", f"memcli context, {s.cold} notes/level", g, ["context"],
                      env=cold),
            self.case("extract", f"memcli extract, {s.session}-message session, instant "
                      "server", g, extract, env=cold),
            # Exit 1 (REJECTED) is this case's outcome since the learned detector: it reads
            # the session's generated word salad ("Webhook snapshot cron alert pager ...") as
            # lasting project facts, more than the 25 operations one extract may hold, and
            # says which it dropped. What is timed is reading and matching the session.
            self.case("extract_rules", f"memcli extract --provider rules, {s.session} msgs", g,
                      ["extract", "--input", str(session), "--provider", "rules"], env=cold,
                      ok_codes=(0, 1)),
            self.case("extract_turn", "memcli extract --provider rules, one turn", g,
                      ["extract", "--input", str(self.scratch / "turn.jsonl"), "--provider",
                       "rules"], env=cold),
            self.case("hook_session_end", "memcli hook claude-code, SessionEnd, nothing to "
                      "queue", g, ["hook", "claude-code"], env=cold,
                      stdin=self.scratch / "session_end.json"),
        ]
        # Floors: what the same libraries, or the same modules, cost without any work. They
        # show how much of a missed target is left for memcli's own code to win back.
        g = "floors"
        cases.append(self.case("typer_app_help", "minimal typer app --help (2 commands)", g,
                               [str(self.scratch / "minimal_typer.py"), "--help"], python=True))
        for row_id, label, code in FLOORS:
            cases.append(self.case(row_id, label, g, ["-c", code], python=True))
            self.rows[row_id].extra["code"] = code
        if not timed:
            return
        self.progress.say(f"startup: {len(cases)} commands x {s.startup_reps} rounds")
        # One untimed round first: fills the bytecode cache and the page cache.
        run_group(cases, 1, self.scratch, Progress(quiet=True))
        for case in cases:
            case.row.times.clear()
            case.row.rss.clear()
        run_group(cases, s.startup_reps, self.scratch, self.progress)
        self.progress.done()
        self.rows["extract"].extra["server_requests"] = server.requests

    def store_cases(self, size: int, group: str, suffix: str = "") -> dict[str, Case]:
        """The store commands (and their raw floor) on the stores of SIZE notes per level."""
        root = self.scratch / f"store{size}"
        env = stores_env(self.env, root)

        def drop_index(_rep: int) -> None:
            for level in ("project", "user"):
                (root / level / "MEMORY.md").unlink(missing_ok=True)

        folders = [str(root / "project"), str(root / "user")]
        cases = {"raw": self.case(
            f"raw_{size}{suffix}", f"raw floor (pathlib read + find), {size:,} notes/level",
            group, [str(self.scratch / "raw_floor.py"), *folders], python=True), "bare": self.case(
            f"bare_{size}{suffix}", f"bare floor (scandir + bytes), {size:,} notes/level",
            group, [str(self.scratch / "bare_floor.py"), *folders], python=True)}
        for command, label, args, before in (
            ("lint", "memcli lint", ["lint"], None),
            ("index", "memcli index (rewrite)", ["index"], drop_index),
            ("indexcheck", "memcli index --check", ["index", "--check"], None),
            ("show", "memcli show --json", ["show", "--json"], None),
            ("context", "memcli context", ["context"], None),
        ):
            cases[command] = self.case(f"{command}_{size}{suffix}",
                                       f"{label}, {size:,} notes/level", group, args, env=env,
                                       before=before)
        # index --check runs after the rewrite of the same round, so it finds MEMORY.md fresh.
        return cases

    def scale(self, timed: bool = True) -> None:
        s = self.sizes
        by_size = [self.store_cases(size, f"scale{size}") for size in (s.small, s.large)]
        if not timed:
            return
        # Both sizes of a command run back to back in every round: the 10x ratio is paired.
        cases = [pair[c] for c in by_size[0] for pair in by_size]
        self.progress.say(f"scale: {s.small:,} and {s.large:,} notes per level, "
                          f"{s.scale_reps} rounds")
        run_group(cases, s.scale_reps, self.scratch, self.progress)
        self.progress.done()

    def huge(self, timed: bool = True) -> None:
        """The growth from the large to the huge store, paired by round, and its memory."""
        s = self.sizes
        by_size = [self.store_cases(s.large, f"scale{s.huge}", "_paired"),
                   self.store_cases(s.huge, f"scale{s.huge}")]
        if not timed:
            return
        cases = [pair[c] for c in by_size[0] for pair in by_size]
        self.progress.say(f"huge: {s.large:,} and {s.huge:,} notes per level, "
                          f"{s.huge_reps} rounds")
        run_group(cases, s.huge_reps, self.scratch, self.progress)
        self.progress.done()

    def writes(self, timed: bool = True) -> None:
        s = self.sizes
        apply_root = self.scratch / "apply"

        def fresh_stores(rep: int) -> None:
            shutil.rmtree(apply_root, ignore_errors=True)
            apply_root.mkdir()

        apply_case = self.case(
            "apply", f"memcli apply, {s.creates:,} creates in one document", "writes",
            ["apply", str(self.scratch / "apply.json")], env=stores_env(self.env, apply_root),
            before=fresh_stores,
        )
        row = self.row("add", f"memcli add, {s.adds} in sequence (per add)", "writes")
        if not timed:
            return
        self.progress.say(f"apply: {s.creates:,} creates x {s.apply_reps} rounds")
        run_group([apply_case], s.apply_reps, self.scratch, self.progress)
        self.progress.done()

        add_root = self.scratch / "adds"
        env = stores_env(self.env, add_root)
        self.progress.say(f"add: {s.adds} sequential adds")
        started = time.perf_counter()
        for number in range(s.adds):
            case = Case(row, [*self.memcli, "add", f"Fact {number}: the build cache key is "
                              f"v{number}. It changes with the lock file."], env, self.work)
            run_group([case], 1, self.scratch, Progress(quiet=True))
            if row.error:
                break
        row.extra["total_s"] = time.perf_counter() - started
        written = len(list((add_root / "project").glob("*.md"))) - 1
        row.extra["notes_written"] = written

    def prompt_cost(self) -> dict[str, Any]:
        """The extraction prompt's fixed part: characters, memcli's own token estimate, and
        tokens by each offline tokenizer installed (prompt_tokens.py has the details)."""
        import prompt_tokens  # a sibling script

        counters, missing = prompt_tokens.tokenizers(None)
        figures = prompt_tokens.measure(prompt_tokens.fixed_text(), counters)
        return {"fixed_chars": figures.chars, "estimate": figures.estimate,
                "tokens": figures.tokens, "not_counted": missing}


# --------------------------------------------------------------------------- results


def ratio(rows: dict[str, Row], a: str, b: str) -> float | None:
    """A's time over B's: the median of per-round ratios when both ran in the same rounds.

    Load on a shared machine comes in bursts of seconds; a round's commands run back to
    back, so pairing them by round cancels most of a burst, where the ratio of two medians
    can still be skewed by one (seen here: 1.27 against 1.15 for the same samples).
    """
    x, y = rows[a], rows[b]
    if x.median is None or not y.median:
        return None
    if x.batch == y.batch >= 0 and len(x.times) == len(y.times):
        return statistics.median(p / q for p, q in zip(x.times, y.times, strict=True))
    return x.median / y.median


STORE_COMMANDS = {"lint": "lint", "index": "index", "indexcheck": "index --check",
                  "show": "show --json", "context": "context"}
RAW_LIMITS = {"lint": 4.0, "context": 2.0, "show": 2.0, "indexcheck": 2.0}


@dataclass
class Target:
    id: str
    description: str
    value: float | None
    limit: float
    unit: str  # "x" for a ratio, "s", "MB"
    needs: tuple[str, ...] = ()  # the rows it is computed from
    reason: str = ""

    @property
    def met(self) -> bool | None:
        return None if self.value is None else self.value <= self.limit


def targets(rows: dict[str, Row], sizes: Sizes) -> list[Target]:
    big, small = sizes.large, sizes.small

    def secs(row_id: str) -> float | None:
        return rows[row_id].median

    def mb(row_id: str) -> float | None:
        peak = rows[row_id].peak_rss
        return peak / MB if peak is not None else None

    found = [
        Target("help", "memcli --help / import typer", ratio(rows, "help", "typer"), 1.2, "x",
               ("help", "typer")),
        Target("version", "memcli --version / import typer", ratio(rows, "version", "typer"),
               1.1, "x", ("version", "typer")),
        Target("lint_cold", f"memcli lint ({sizes.cold} notes/level) / import typer",
               ratio(rows, "lint_cold", "typer"), 1.5, "x", ("lint_cold", "typer")),
        Target("lint_large", f"memcli lint, {big:,} notes/level", secs(f"lint_{big}"), 2.0, "s",
               (f"lint_{big}",)),
        Target("index_large", f"memcli index, {big:,} notes/level", secs(f"index_{big}"),
               2.0, "s", (f"index_{big}",)),
        Target("lint_scale", f"lint {big:,} / {small:,} notes",
               ratio(rows, f"lint_{big}", f"lint_{small}"), 12.0, "x",
               (f"lint_{big}", f"lint_{small}")),
        Target("index_scale", f"index {big:,} / {small:,} notes",
               ratio(rows, f"index_{big}", f"index_{small}"), 12.0, "x",
               (f"index_{big}", f"index_{small}")),
        Target("apply", f"memcli apply, {sizes.creates:,} creates", secs("apply"), 5.0, "s",
               ("apply",)),
        Target("extract", "memcli extract (instant server) / memcli --help",
               ratio(rows, "extract", "help"), 2.0, "x", ("extract", "help")),
        Target("extract_turn", "extract --provider rules (one turn) / memcli --help",
               ratio(rows, "extract_turn", "help"), 2.5, "x", ("extract_turn", "help")),
        Target("rss_lint", f"peak RSS, lint {big:,} notes/level", mb(f"lint_{big}"), 150.0,
               "MB", (f"lint_{big}",)),
        Target("rss_index", f"peak RSS, index {big:,} notes/level", mb(f"index_{big}"), 150.0,
               "MB", (f"index_{big}",)),
        Target("show_cold", f"memcli show ({sizes.cold} notes/level) / import typer",
               ratio(rows, "show_cold", "typer"), 1.5, "x", ("show_cold", "typer")),
        # Claude Code gives SessionEnd about 1.5 s before the process goes.
        Target("hook_session_end", "memcli hook claude-code, SessionEnd",
               secs("hook_session_end"), 1.5, "s", ("hook_session_end",)),
    ]
    # Against the raw floor of the same rounds: what a command costs over reading the files.
    for command, limit in RAW_LIMITS.items():
        found.append(Target(f"{command}_raw", f"{STORE_COMMANDS[command]}, {big:,}/level / raw "
                            "floor", ratio(rows, f"{command}_{big}", f"raw_{big}"), limit, "x",
                            (f"{command}_{big}", f"raw_{big}")))
    huge = sizes.huge
    for command, label in STORE_COMMANDS.items():
        found.append(Target(f"{command}_growth", f"{label}, {huge:,} / {big:,} notes/level",
                            ratio(rows, f"{command}_{huge}", f"{command}_{big}_paired"), 10.5,
                            "x", (f"{command}_{huge}", f"{command}_{big}_paired")))
    for command, label in STORE_COMMANDS.items():
        found.append(Target(f"rss_{command}_huge", f"peak RSS, {label}, {huge:,} notes/level",
                            mb(f"{command}_{huge}"), 300.0, "MB",
                            (f"{command}_{huge}", f"{command}_{big}_paired")))
    for target in found:
        target.reason = _reason(target, rows)
    return found


def _reason(target: Target, rows: dict[str, Row]) -> str:
    """Where a target is missed, the measurement of this run that explains it."""
    if target.value is None:
        broken = [rows[r] for r in target.needs if rows[r].error]
        return "not measured: " + ("; ".join(f"{r.id}: {r.error}" for r in broken) or "not run")
    if target.met:
        return ""
    def r(a: str, b: str) -> str:
        value = ratio(rows, a, b)
        return "?" if value is None else f"{value:.2f} x"

    if target.id in ("help", "version"):
        return (f"typer's own floor: a minimal two-command typer program's --help costs "
                f"{r('typer_app_help', 'typer')}; typer builds the whole click command tree "
                "(every command and option of memcli) before it parses an option")
    if target.id == "lint_cold":
        return (f"importing lint's libraries alone (typer, ahocorasick-rs) costs "
                f"{r('lint_libs', 'typer')}, every module lint loads {r('lint_mods', 'typer')} "
                "before any work")
    if target.id == "extract":
        return (f"importing extract's libraries alone (typer, pyyaml, httpx, "
                f"httpx-sse, stamina) costs {r('extract_libs', 'help')} memcli "
                f"--help, every module extract loads {r('extract_mods', 'help')}")
    if target.id.endswith(("_growth", "_huge")):
        big, small = rows[target.needs[0]], rows[target.needs[1]]
        notes = 2 * (int(big.id.split("_")[1]) - int(small.id.split("_")[1]))
        if target.unit == "MB" and big.peak_rss is not None and small.peak_rss is not None:
            return f"{(big.peak_rss - small.peak_rss) / notes / 1024:.1f} KB per note held"
        if big.median is not None and small.median is not None:
            return (f"{(big.median - small.median) / notes * 1e6:.0f} us per note (both levels) "
                    f"on top of {small.median * 1000:.0f} ms")
        return "see the rows above"
    if target.id.endswith("_raw"):
        bare = target.needs[1].replace("raw_", "bare_")
        return (f"{r(target.needs[0], bare)} the bare floor (os.scandir and bytes); what is "
                "over the floor is parsing and checking")
    if target.id in ("lint_large", "index_large", "rss_lint", "rss_index"):
        command = target.needs[0].split("_")[0]
        big = int(target.needs[0].split("_")[1])
        small = min(int(k.split("_")[1]) for k in rows if k.startswith(command + "_")
                    and k.split("_")[1].isdigit())
        a, b = rows[f"{command}_{small}"], rows[f"{command}_{big}"]
        notes = 2 * (big - small)
        if target.unit == "MB" and a.peak_rss is not None and b.peak_rss is not None:
            return f"{(b.peak_rss - a.peak_rss) / notes / 1024:.1f} KB per note held in memory"
        if a.median is not None and b.median is not None:
            return (f"{(b.median - a.median) / notes * 1e6:.0f} us per note (both levels) "
                    f"on top of {a.median * 1000:.0f} ms for {2 * small:,} notes")
    return "see the rows above"


def render_table(rows: dict[str, Row], found: list[Target], prompt: dict[str, Any],
                 previous: dict[str, Any] | None) -> str:
    prev_ratio = {r["id"]: r.get("ratio_typer") for r in (previous or {}).get("rows", [])}
    lines = [f"{'case':<58} {'median':>10} {'x typer':>8} {'prev':>6} {'RSS MB':>7} {'n':>3}"]
    group = None
    for row in rows.values():
        if row.group != group:
            group = row.group
            lines.append(f"-- {group}")
        med = row.median
        r = ratio(rows, row.id, "typer")
        rss = row.peak_rss
        prev = prev_ratio.get(row.id)
        lines.append(
            f"{row.label[:58]:<58} "
            f"{_ms(med) if med is not None else 'FAILED' if row.error else 'not run':>10} "
            f"{f'{r:.2f}' if r is not None else '-':>8} "
            f"{f'{prev:.2f}' if isinstance(prev, float) else '-':>6} "
            f"{f'{rss / MB:.0f}' if rss is not None else '-':>7} "
            f"{len(row.times):>3}"
        )
        if row.error:
            lines.append(f"   error: {row.error}")
    add = rows["add"]
    if "total_s" in add.extra:
        lines.append(f"   ({add.extra['notes_written']} notes written by the adds in "
                     f"{add.extra['total_s']:.1f} s)")
    lines += ["", prompt_line(prompt),
              "", f"{'target':<50} {'value':>9} {'limit':>9}  result"]
    for t in found:
        value = "-" if t.value is None else _unit(t.value, t.unit)
        verdict = {True: "met", False: "NOT MET", None: "not measured"}[t.met]
        lines.append(f"{t.description:<50} {value:>9} {_unit(t.limit, t.unit):>9}  {verdict}")
        if t.reason:
            lines.append(f"   {t.reason}")
    return "\n".join(lines)


def prompt_line(prompt: dict[str, Any]) -> str:
    """What the prompt row counted, and with what."""
    counted = "".join(f"; {name} {count:,} tokens" for name, count in prompt["tokens"].items())
    if not counted:
        counted = ("; no tokenizer installed to count it (pip install -e '.[bench-tokens]'; "
                   "benchmarks/prompt_tokens.py)")
    return (f"prompt, fixed part: {prompt['fixed_chars']:,} characters; memcli's estimate "
            f"{prompt['estimate']:,} tokens (memcli.tokens){counted}")


def scale_table(rows: dict[str, Row], sizes: Sizes) -> str:
    """Each store command against the raw floor of its round, and its growth to the huge store."""
    big, huge = sizes.large, sizes.huge

    def cell(value: float | None, fmt: str) -> str:
        return "-" if value is None else format(value, fmt)

    def secs(row_id: str) -> float | None:
        return rows[row_id].median if row_id in rows else None

    lines = [f"{'scale':<16} {f'{big:,}/level':>12} {'x raw':>6} {f'{huge:,}/level':>13} "
             f"{'x raw':>6} {'growth':>7} {'RSS MB':>7}"]
    for command, label in {"raw": "raw floor", "bare": "bare floor", **STORE_COMMANDS}.items():
        small_id, paired_id, huge_id = f"{command}_{big}", f"{command}_{big}_paired", (
            f"{command}_{huge}")
        peak = rows[huge_id].peak_rss if huge_id in rows else None
        lines.append(
            f"{label:<16} {cell(secs(small_id), '.3f'):>11}s "
            f"{cell(ratio(rows, small_id, f'raw_{big}'), '.2f'):>6} "
            f"{cell(secs(huge_id), '.3f'):>12}s "
            f"{cell(ratio(rows, huge_id, f'raw_{huge}'), '.2f'):>6} "
            f"{cell(ratio(rows, huge_id, paired_id), '.2f'):>7} "
            f"{cell(None if peak is None else peak / MB, '.0f'):>7}")
    return "\n".join(lines)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms" if seconds >= 1 else f"{seconds * 1000:.1f} ms"


def _unit(value: float, unit: str) -> str:
    return {"x": f"{value:.2f} x", "s": f"{value:.2f} s", "MB": f"{value:.0f} MB"}[unit]


def to_json(rows: dict[str, Row], found: list[Target], prompt: dict[str, Any], meta: dict[str, Any]
            ) -> dict[str, Any]:
    return {
        **meta,
        "rows": [{
            "id": r.id, "label": r.label, "group": r.group, "runs": len(r.times),
            "median_ms": None if r.median is None else r.median * 1000,
            "min_ms": min(r.times) * 1000 if r.times else None,
            "max_ms": max(r.times) * 1000 if r.times else None,
            "times_ms": [round(t * 1000, 3) for t in r.times],
            "ratio_typer": ratio(rows, r.id, "typer"),
            "ratio_pass": ratio(rows, r.id, "pass"),
            "peak_rss_mb": None if r.peak_rss is None else r.peak_rss / MB,
            "error": r.error, **r.extra,
        } for r in rows.values()],
        "targets": [{"id": t.id, "description": t.description, "value": t.value,
                     "limit": t.limit, "unit": t.unit, "met": t.met, "reason": t.reason}
                    for t in found],
        "prompt": prompt,
    }


def previous_result(folder: Path, current: Path) -> dict[str, Any] | None:
    for path in sorted(folder.glob("*.json"), reverse=True):
        if path != current:
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(path.read_text("utf-8"))
                if (isinstance(data, dict) and data.get("quick") is False
                        and set(data.get("groups", ())) == set(GROUPS)):
                    return data
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="memcli performance benchmark")
    parser.add_argument("--quick", action="store_true",
                        help="tiny stores and few rounds: checks the harness, not the targets")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for the JSON result")
    parser.add_argument("--memcli", help="the memcli executable (default: the console script "
                        "next to this Python)")
    parser.add_argument("--only", type=lambda v: set(v.split(",")), default=set(GROUPS),
                        metavar="GROUPS", help="comma-separated subset of: " + ", ".join(GROUPS)
                        + " (while optimising; the rows of the others are left empty)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    memcli, how = launcher(args.memcli)
    if shutil.which(memcli[0]) is None:
        parser.error(f"cannot run {memcli[0]}: install memcli in this environment or pass "
                     "--memcli")
    progress = Progress(args.quiet)
    started = dt.datetime.now(dt.UTC)
    clock = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="memcli-bench-"))
    try:
        bench = Bench(sizes, memcli, scratch, progress)
        bench.setup(args.only)
        with InstantServer() as server:
            bench.startup(server, "startup" in args.only)
        bench.scale("scale" in args.only)
        bench.huge("huge" in args.only)
        bench.writes("writes" in args.only)
        prompt = bench.prompt_cost()
    finally:
        if args.keep:
            progress.say(f"kept {scratch}")
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    rows = bench.rows
    found = targets(rows, sizes)
    from importlib.metadata import version

    meta = {
        "format": 1, "started": started.isoformat(timespec="seconds"),
        "duration_s": round(time.monotonic() - clock, 1), "quick": args.quick,
        "groups": sorted(args.only), "sizes": sizes.__dict__, "launcher": how,
        "setup_notes": bench.notes,
        "environment": {"python": platform.python_version(), "implementation":
                        platform.python_implementation(), "typer": version("typer"),
                        "platform": platform.platform(), "cpus": os.cpu_count()},
    }
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{started.strftime('%Y%m%dT%H%M%SZ')}{'-quick' if args.quick else ''}.json"
    data = to_json(rows, found, prompt, meta)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    previous = previous_result(args.out, path)
    env = meta["environment"]
    print(f"memcli benchmark: Python {env['python']}, typer {env['typer']}, "
          f"{env['cpus']} CPUs, {how}; {meta['duration_s']:.0f} s"
          f"{' (quick: sizes too small for the targets)' if args.quick else ''}")
    print(render_table(rows, found, prompt, previous))
    print()
    print(scale_table(rows, sizes))
    for note in bench.notes:
        print(f"setup: {note}")
    print(f"\nresults: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
