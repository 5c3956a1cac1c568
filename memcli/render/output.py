"""Where a command prints, and the pieces every command's output shares: data to stdout,
messages to stderr, colour and layout only on a terminal, diffs, a spinner, a progress bar."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TextIO

from memcli.json_values import dumps

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

RED, GREEN, CYAN, YELLOW, BOLD, RESET = (
    "\033[31m", "\033[32m", "\033[36m", "\033[33m", "\033[1m", "\033[0m",
)


def _json_item(item: object, quoted: Callable[[str], str]) -> str:
    """One item of a list as :func:`memcli.json_values.dumps` lays it out inside the list;
    QUOTED is the json module's string encoder."""
    if isinstance(item, dict) and item and all(
            isinstance(k, str) and isinstance(v, str) for k, v in item.items()):
        # The common case (a flat record of text), without the pure-Python indenting encoder.
        fields = ",\n    ".join(f"{quoted(k)}: {quoted(v)}" for k, v in item.items())
        return "{\n    " + fields + "\n  }"
    # JSON escapes line breaks inside strings, so every "\n" here is layout.
    return dumps(item).replace("\n", "\n  ")


class Output:
    """Where and how a command prints; built once by the CLI, which knows the terminal."""

    def __init__(self, *, out: TextIO, err: TextIO, as_json: bool = False, color: bool = False,
                 err_color: bool = False, terminal: bool = False, err_is_terminal: bool = False,
                 width: int = 80) -> None:
        self.out = out
        self.err = err
        self.as_json = as_json
        # Layout follows the terminal; NO_COLOR only takes the colour away.
        self.terminal = terminal
        self.color = color
        self.err_color = err_color
        # A spinner needs a terminal on stderr that takes escape sequences.
        self.live = err_is_terminal and err_color
        self.width = max(width, 40)

    def line(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def data(self, payload: object) -> None:
        """PAYLOAD as JSON on stdout, through the one encoder (memcli.json_values)."""
        self.out.write(dumps(payload) + "\n")

    def data_list(self, items: Iterable[object]) -> None:
        """``data(list(items))``, written an item at a time: a listing of 200,000 notes is
        never held as one string (nor as the encoder's millions of pieces)."""
        # The json module loads with the first JSON printed: text output never needs it.
        from json.encoder import encode_basestring

        first = True
        for item in items:
            self.out.write(("[\n  " if first else ",\n  ") + _json_item(item, encode_basestring))
            first = False
        self.out.write("[]\n" if first else "\n]\n")

    def note(self, text: str) -> None:
        self.err.write(text + "\n")

    def warn(self, text: str) -> None:
        prefix = f"{YELLOW}warning:{RESET}" if self.err_color else "warning:"
        self.err.write(f"memcli: {prefix} {_one_safe_line(text)}\n")

    def error(self, text: str) -> None:
        prefix = f"{RED}error:{RESET}" if self.err_color else "error:"
        self.err.write(f"memcli: {prefix} {_one_safe_line(text)}\n")

    def paint(self, text: str, style: str) -> str:
        return f"{style}{text}{RESET}" if self.color else text


def _one_safe_line(text: str) -> str:
    """A warning or an error often quotes what someone else wrote (a provider's message, a
    note a repository holds): its escape sequences must not drive the person's terminal, nor
    its line breaks forge lines of memcli's own."""
    from memcli.safety.invisible_chars import safe_line

    return safe_line(text)


def diff(output: Output, text: str) -> None:
    from memcli.safety.invisible_chars import visible

    # A diff is what a person reviews: an escape sequence or hidden text in a note (a
    # repository's, a model's) is shown as a code, neither run by the terminal nor unseen.
    # Lines end at "\n" (or "\r\n") only: the other breaks splitlines knows would let a
    # note forge lines of the diff.
    lines = text.removesuffix("\n").split("\n") if text else []
    for line in (visible(raw.removesuffix("\r")) for raw in lines):
        style = _diff_style(line) if output.color else ""
        output.line(output.paint(line, style) if style else line)


def _diff_style(line: str) -> str:
    if line.startswith(("+++", "---")):
        return BOLD
    if line.startswith("+"):
        return GREEN
    if line.startswith("-"):
        return RED
    return CYAN if line.startswith("@@") else ""


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class Spinner:
    """A one-line progress indicator on stderr, only when stderr is a terminal."""

    _FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"

    def __init__(self, output: Output) -> None:
        self.output = output
        self.active = output.live
        self.ticks = 0

    def __enter__(self) -> Spinner:
        return self

    def update(self, received: int) -> None:
        if not self.active:
            return
        frame = self._FRAMES[self.ticks % len(self._FRAMES)]
        self.ticks += 1
        self.output.err.write(f"\r{frame} waiting for the model… {received} characters")
        self.output.err.flush()

    def __exit__(self, *exc: object) -> None:
        if self.active and self.ticks:
            self.output.err.write("\r\033[K")
            self.output.err.flush()


# Below this many notes to analyse, a search index is built before a line would be read.
INDEX_PROGRESS_FROM = 2000


class IndexProgress:
    """`indexing notes for search: 4,000/20,000` on stderr while search builds or updates
    its index of a big store (a first search of 100,000 notes takes a minute), only on a
    terminal; the line is wiped when done. DOING says what is done to a level's notes
    (`extract` reads them, the first time after an upgrade: 3 s for 20,000)."""

    def __init__(self, output: Output,
                 doing: str = "indexing the {level} notes for search") -> None:
        self.output = output
        self.enabled = output.live
        self.shown = False
        self.doing = doing

    def __enter__(self) -> IndexProgress:
        return self

    def update(self, level: str, done: int, total: int) -> None:
        if not self.enabled or total < INDEX_PROGRESS_FROM:
            return
        doing = self.doing.format(level=level)
        self.output.err.write(f"\rmemcli: {doing}: {done:,}/{total:,}\033[K")
        self.output.err.flush()
        self.shown = True

    def __exit__(self, *exc: object) -> None:
        if self.shown:
            self.output.err.write("\r\033[K")
            self.output.err.flush()


# Below this many characters a read is over before a bar would be drawn.
PROGRESS_FROM = 4_000_000


class ReadProgress:
    """A progress bar on stderr while a big transcript is read, only on a terminal."""

    def __init__(self, output: Output) -> None:
        self.output = output
        self.enabled = output.live
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __enter__(self) -> ReadProgress:
        return self

    def update(self, done: int, total: int) -> None:
        if not self.enabled or total < PROGRESS_FROM:
            return
        if self.bar is None or self.task is None:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

            self.bar = Progress(TextColumn("reading the transcript"), BarColumn(),
                                TaskProgressColumn(), console=Console(file=self.output.err),
                                transient=True)
            self.bar.start()
            self.task = self.bar.add_task("read", total=total)
        self.bar.update(self.task, completed=done)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()
