"""All output: data to stdout, messages to stderr; colour and tables only on a terminal."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from memcli.config import Settings
    from memcli.explain import Explanation

_RED, _GREEN, _CYAN, _YELLOW, _BOLD, _RESET = (
    "\033[31m", "\033[32m", "\033[36m", "\033[33m", "\033[1m", "\033[0m",
)


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

    def data(self, payload: Any) -> None:
        self.out.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")

    def note(self, text: str) -> None:
        self.err.write(text + "\n")

    def warn(self, text: str) -> None:
        prefix = f"{_YELLOW}warning:{_RESET}" if self.err_color else "warning:"
        self.err.write(f"memcli: {prefix} {text}\n")

    def error(self, text: str) -> None:
        prefix = f"{_RED}error:{_RESET}" if self.err_color else "error:"
        self.err.write(f"memcli: {prefix} {text}\n")

    def paint(self, text: str, style: str) -> str:
        return f"{style}{text}{_RESET}" if self.color else text


def apply_report(output: Output, report: Any) -> None:
    if output.as_json:
        output.data(report.as_json())
        return
    for outcome in report.outcomes:
        _outcome(output, outcome, report.dry_run)
    for level in report.stale_levels:
        output.warn(f"the {level} store changed since extraction (stale base); "
                    "the operations were checked against it as it is now")
    for warning in report.warnings:
        output.warn(warning)
    if report.dry_run:
        diff(output, report.diff)
        output.note(_summary(report, "dry run, nothing written"))
    else:
        output.note(_summary(report, "written" if report.written else "nothing written"))
    for level, path in report.created.items():
        output.note(f"memcli: created the {level} store at {path}")
    if report.backup:
        output.note(f"memcli: the notes as they were are kept: `memcli restore {report.backup}` "
                    "puts them back")


def _outcome(output: Output, outcome: Any, dry_run: bool) -> None:
    where = f"#{outcome.position} {outcome.action}"
    if outcome.status == "rejected":
        output.error(f"rejected {where}: {outcome.message}")
        return
    if outcome.status == "skipped":
        return
    verb = {"applied": "would " if dry_run else "", "unchanged": "", "held": ""}[outcome.status]
    text = f"{verb}{outcome.message}" if outcome.status == "applied" else outcome.message
    if outcome.reason:
        text += f"  ({outcome.reason})"
    output.line(text)
    for warning in outcome.warnings:
        output.line(f"  note: {warning}")


def _summary(report: Any, state: str) -> str:
    counts: dict[str, int] = {}
    for outcome in report.outcomes:
        status = "to apply" if report.dry_run and outcome.status == "applied" else outcome.status
        counts[status] = counts.get(status, 0) + 1
    parts = [f"{n} {status}" for status, n in counts.items()] or ["no operations"]
    return f"memcli: {', '.join(parts)}; {len(report.files)} files; {state}"


def diff(output: Output, text: str) -> None:
    for line in text.splitlines():
        if not output.color:
            output.line(line)
        elif line.startswith(("+++", "---")):
            output.line(output.paint(line, _BOLD))
        elif line.startswith("+"):
            output.line(output.paint(line, _GREEN))
        elif line.startswith("-"):
            output.line(output.paint(line, _RED))
        elif line.startswith("@@"):
            output.line(output.paint(line, _CYAN))
        else:
            output.line(line)


def index_results(output: Output, results: Sequence[Any], *, check: bool) -> None:
    if output.as_json:
        output.data([{"level": r.level, "path": str(r.path), "up_to_date": r.up_to_date,
                      "rewritten": r.changed, "broken": r.broken} for r in results])
        return
    if not results:
        output.note("memcli: no store exists yet; nothing to index")
    for result in results:
        for problem in result.broken:
            output.warn(f"{problem}; its old index line is kept")
        if result.up_to_date and result.broken and check:
            count = len(result.broken)
            output.error(f"{result.level}: {result.path} cannot be checked while {count} "
                         f"{'note is' if count == 1 else 'notes are'} broken; fix "
                         f"{'it' if count == 1 else 'them'}, then run `memcli index --check`")
        elif result.up_to_date:
            output.note(f"{result.level}: {result.path} is up to date")
        elif check:
            output.error(f"{result.level}: {result.path} is out of date; run `memcli index`")
        else:
            output.note(f"{result.level}: rewrote {result.path}")


def context_block(output: Output, block: Any) -> None:
    if output.as_json:
        from memcli.tokens import TOKENIZER, count_tokens

        output.data({"text": block.text, "shown": block.shown, "left_out": block.left_out,
                     "tokens": count_tokens(block.text), "tokenizer": TOKENIZER})
    else:
        output.out.write(block.text)


def listing(output: Output, listing: Any, *, paths: bool) -> None:
    if paths:
        if output.as_json:
            output.data({level: str(path) for level, path in listing.paths.items()})
        else:
            for level, path in listing.paths.items():
                output.line(f"{level}\t{path}")
        return
    if output.as_json:
        output.data([_entry_json(e) for e in listing.entries])
    elif output.terminal:
        _note_table(output, listing)
    else:
        for e in listing.entries:
            output.line("\t".join([e.level, e.type, e.title, e.summary, e.filename, e.updated]))
    for problems in listing.broken.values():
        for problem in problems:
            output.warn(problem)


def _entry_json(entry: Any) -> dict[str, str]:
    return {"level": entry.level, "type": entry.type, "title": entry.title,
            "summary": entry.summary, "file": entry.filename, "updated": entry.updated}


_TYPE_LABELS = {"correction_feedback": "correction", "user_preference": "preference",
                "project_knowledge": "knowledge", "reference_material": "reference"}
_LABEL_WIDTH = max(len(label) for label in _TYPE_LABELS.values())


def _note_table(output: Output, listing: Any) -> None:
    """For a person at a terminal: per store, two short lines a note, cut to the width."""
    for level, path in listing.paths.items():
        entries = [e for e in listing.entries if e.level == level]
        if not entries:
            continue
        noun = "note" if len(entries) == 1 else "notes"
        heading = _cut(f"{level} ({len(entries)} {noun}, {path})", output.width)
        output.line(output.paint(heading, _BOLD))
        for e in entries:
            label = _TYPE_LABELS.get(e.type, e.type)[:_LABEL_WIDTH].ljust(_LABEL_WIDTH)
            same = e.summary.rstrip(".。 ") == e.title.rstrip(".。 ")
            text = f"{e.title} — {e.summary}" if e.summary and not same else e.title
            room = output.width - _LABEL_WIDTH - 4
            output.line(f"  {output.paint(label, _CYAN)}  {_cut(text, room)}")
            detail = f"{e.filename}  {e.updated[:10]}".rstrip()
            output.line(" " * (_LABEL_WIDTH + 4) + _cut(detail, room))


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 1)] + "…"


def one_note(output: Output, found: Any) -> None:
    if output.as_json:
        note = found.note
        output.data({"level": found.level, "file": found.filename, "path": str(found.path),
                     "meta": note.meta if note else None,
                     "content": note.content if note else None, "problem": found.problem})
        return
    if found.note is None:
        output.warn(found.problem)
        output.out.write(found.path.read_text("utf-8", "replace"))
        return
    output.out.write(found.note.raw.decode("utf-8", "replace"))


def extract_result(output: Output, result: Any, *, verbose: bool, show_prompt: bool) -> None:
    if show_prompt:
        output.out.write(result.prompt.combined())
        return
    stats = result.stats
    if stats["skipped"] or stats["broken"]:
        output.note(f"memcli: transcript: {stats['messages']} messages; skipped "
                    f"{stats['skipped']} records that are not messages and {stats['broken']} "
                    "broken lines")
    for warning in result.warnings:
        output.warn(warning)
    if not stats["messages"] and stats["records"]:
        output.warn("no messages found in the transcript; nothing to extract")
    if stats["redacted"]:
        output.note(f"memcli: redacted {stats['redacted']} secrets from the transcript")
    if result.notice:
        output.note(f"memcli: {result.notice}")
    for position, reason in result.rejected:
        output.error(f"rejected operation #{position} from the {result.provider} extractor: "
                     f"{reason}")
    if result.explanation is not None and not output.as_json:
        explanation(output, result.explanation)
    if verbose and result.usage:
        usage = result.usage
        output.note(f"memcli: {usage.get('model')}: {usage.get('input_tokens')} input tokens, "
                    f"{usage.get('output_tokens')} output tokens, {usage.get('attempts')} "
                    "attempts")
    if output.as_json:
        output.data(result.as_json())
    elif result.report is not None:
        apply_report(output, result.report)
    else:
        output.data(result.document())


def explanation(output: Output, found: Explanation) -> None:
    """Why each operation was made, and why each silent message gave none (on stderr, so
    that stdout stays the operations document)."""
    for op in found.operations:
        output.note(f"memcli: explain: #{op.number} {op.action} {op.level} '{op.title}'")
        if op.message is not None:
            output.note(f"  from message {op.message}: \"{op.sentence}\"")
        output.note(f"  because: {op.statement}")
        output.note(f"  routed: {op.level}/{op.type or '(type unchanged)'}: {op.routing}")
        output.note(f"  duplicate: {op.duplicate or 'none found'}")
    for why in found.refused:
        output.note(f"memcli: explain: refused: {why}")
    for message in found.silent:
        output.note(f"memcli: explain: message {message.message} gave no operation: "
                    f"\"{message.text}\"")
        for reason in message.reasons:
            output.note(f"  {reason}")


def settings_sources(output: Output, settings: Settings, *, to_stdout: bool = False) -> None:
    rows: list[tuple[str, str | None, str]] = []
    for name, setting in settings.sources.items():
        value = None if setting.value is None else str(setting.value)
        if name == "api_key" and value:
            value = value[:4] + "…" + f" ({len(value)} characters)"
        rows.append((name, value, setting.source))
    problems = settings.problems
    if output.as_json and to_stdout:
        output.data({**{name: {"value": value, "source": source,
                               **({"error": problems[name]} if name in problems else {})}
                        for name, value, source in rows},
                     **({"ignored": settings.ignored} if settings.ignored else {})})
        return
    write = output.line if to_stdout else output.note
    for name, value, source in rows:
        write(f"{name} = {value or '(unset)'}    # {source}")
    for name, why in settings.ignored.items():
        write(f"# ignored {name} from the project config: {why}")
    for problem in problems.values():
        output.error(problem)


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


def removal_targets(output: Output, targets: Sequence[Any]) -> None:
    for target in targets:
        output.note(f"  {target.level}/{target.filename}")


# --------------------------------------------------------------------------- lint

LINT_FORMATS = ("text", "json", "github")


def lint_report(output: Output, report: Any, fmt: str) -> None:
    """Findings to stdout (text lines, JSON or GitHub annotations); the summary to stderr."""
    if fmt not in LINT_FORMATS:
        from memcli.errors import InputError

        raise InputError(f"unknown --format '{fmt}'; use {', '.join(LINT_FORMATS)}")
    if fmt == "json":
        output.data(report.as_json())
        return
    for done in report.fixed:
        output.note(f"memcli: fixed {done}")
    for item in report.findings:
        output.line(_github_line(item) if fmt == "github" else _lint_line(output, item))
    output.note(_lint_summary(report))


def _lint_line(output: Output, finding: Any) -> str:
    where = ":".join(str(part) for part in (finding.path, finding.line, finding.column)
                     if part is not None)
    style = _RED if finding.severity == "error" else _YELLOW
    label = output.paint(f"{finding.code} {finding.severity}", style)
    return f"{where}: {label}: {finding.message}"


def _github_line(finding: Any) -> str:
    # Workflow commands: properties escape ',' and ':' too; data escapes '%', CR and LF.
    props = [f"file={_gh_escape(finding.path, prop=True)}"]
    if finding.line is not None:
        props.append(f"line={finding.line}")
    if finding.column is not None:
        props.append(f"col={finding.column}")
    props.append(f"title={finding.code}")
    return f"::{finding.severity} {','.join(props)}::{_gh_escape(finding.message)}"


def _gh_escape(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def _lint_summary(report: Any) -> str:
    checked = [s for s in report.stores if s.exists]
    notes = sum(s.notes for s in checked)
    where = (f"{_plural(len(checked), 'store')}, {_plural(notes, 'note')}" if checked
             else "no store exists yet")
    counts = f"{_plural(report.errors, 'error')}, {_plural(report.warnings, 'warning')}"
    fixed = f"; fixed {len(report.fixed)}" if report.fixed else ""
    return f"memcli lint: {counts} ({where}){fixed}"


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def import_result(output: Output, result: Any) -> None:
    if output.as_json:
        output.data(result.as_json())
        return
    for item in result.left_out:
        text = f"{item.file}: {item.reason}; not imported"
        if item.problem:
            output.error(text)
        else:
            output.note(f"memcli: {text}")
    for warning in result.warnings:
        output.warn(warning)
    if result.report is None:
        return
    apply_report(output, result.report)
    for outcome in result.report.outcomes:
        if outcome.status == "rejected":
            output.note(f"  #{outcome.position} came from {result.source_of(outcome.position)}")


def export_result(output: Output, result: Any) -> None:
    if output.as_json:
        output.data(result.as_json())
        return
    for item in result.left_out:
        if item.problem:
            output.error(f"{item.file}: {item.reason}; not exported")
        else:
            output.note(f"memcli: {item.reason}; nothing exported")
    for exported in result.files:
        source = f"  (from {exported.source})" if exported.source else ""
        output.line(f"{exported.change} {result.folder / exported.filename}{source}")
    if result.files:
        written = sum(1 for f in result.files if f.change != "unchanged")
        output.note(f"memcli: exported {len(result.files) - 1} notes of the {result.level} store; "
                    f"{written} files written")


# --------------------------------------------------------------------------- transcripts

# Below this many characters a read is over before a bar would be drawn.
PROGRESS_FROM = 4_000_000


class ReadProgress:
    """A progress bar on stderr while a big transcript is read, only on a terminal."""

    def __init__(self, output: Output) -> None:
        self.output = output
        self.enabled = output.live
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> ReadProgress:
        return self

    def update(self, done: int, total: int) -> None:
        if not self.enabled or total < PROGRESS_FROM:
            return
        if self.bar is None:
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


def transcript_report(output: Output, report: Any) -> None:
    """Each message with its role and format to stdout; what was skipped, and why, to stderr."""
    for warning in report.warnings:
        output.warn(warning)
    document = report.as_json()
    if output.as_json:
        output.data(document)
        return
    for message in document["messages"]:
        head = output.paint(f"[{message['role']} · {message['format']}]", _BOLD)
        output.line(head)
        output.line(message["text"])
        output.line()
    output.note(_transcript_summary(document))


def _transcript_summary(document: dict[str, Any]) -> str:
    formats = ", ".join(f"{name} {count}" for name, count in document["formats"].items())
    skipped = document["skipped"]
    reasons = [f"{reason} {count}" for reason, count in skipped.items()
               if isinstance(count, int) and count]
    reasons += [f"unknown {kind} {count}" for kind, count in skipped["unknown records"].items()]
    said = (f"memcli: {_count(len(document['messages']), 'message')} from "
            f"{_count(document['records'], 'record')}")
    said += f" ({formats})" if formats else ""
    return said + ("; skipped: " + ", ".join(reasons) if reasons else "")


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def transcript_formats(output: Output, formats: Sequence[Any]) -> None:
    if output.as_json:
        output.data([{"name": f.name, "agents": f.agents, "where": f.where} for f in formats])
        return
    for fmt in formats:
        output.line(output.paint(fmt.name, _BOLD))
        output.line(f"  {fmt.agents}")
        output.line(f"  logs: {fmt.where}")
