"""The command line: parse arguments, call one core function, render its result.

Only typer and the standard library are imported here: TAB completion and `--help` run
this module on every key press, so each command imports what it needs when it runs.
"""

# No `from __future__ import annotations` here: typer reads every command's annotations on
# every run, and string annotations cost an eval() apiece (10 ms per start for this app).
import functools
import gc
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
import typer.core

from memcli import __version__

if TYPE_CHECKING:
    from memcli.config import Settings
    from memcli.render import Output

F = TypeVar("F", bound=Callable[..., Any])

# The order a newcomer meets the commands in: the main job first, plumbing last.
COMMAND_ORDER = ("extract", "apply", "show", "context", "add", "rm", "index", "lint", "config",
                 "import", "export", "hook", "completion")


class _OrderedGroup(typer.core.TyperGroup):
    def list_commands(self, ctx: Any) -> list[str]:
        names = super().list_commands(ctx)
        rank = {name: i for i, name in enumerate(COMMAND_ORDER)}
        return sorted(names, key=lambda name: rank.get(name, len(rank)))


app = typer.Typer(
    cls=_OrderedGroup,
    name="memcli",
    help="Long-term memory for AI agents as reviewable Markdown.",
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)

LevelOpt = Annotated[str | None, typer.Option("--level", "-l", help="project, user or all.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
DryRunOpt = Annotated[bool, typer.Option("--dry-run", "-n", help="Show the diff; write nothing.")]
ConflictOpt = Annotated[
    str, typer.Option("--on-conflict", help="A create whose note exists: fail, update or rename.")
]


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"memcli {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def main_options(
    ctx: typer.Context,
    project_store: Annotated[str | None, typer.Option(
        "--project-store", metavar="PATH", help="Project store folder [env MEMCLI_PROJECT_STORE]."
    )] = None,
    user_store: Annotated[str | None, typer.Option(
        "--user-store", metavar="PATH", help="User store folder [env MEMCLI_USER_STORE]."
    )] = None,
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True, help="Print the version and exit."
    )] = False,
) -> None:
    """Long-term memory for AI agents as reviewable Markdown."""
    ctx.obj = {"project_store": project_store, "user_store": user_store}


def handled(command: F) -> F:
    """The one place where memcli errors become a message and an exit status."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from memcli.errors import MemcliError

        try:
            return command(*args, **kwargs)
        except MemcliError as exc:
            sys.stderr.write(f"memcli: error: {exc}\n")
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            sys.stderr.write("memcli: interrupted\n")
            raise typer.Exit(130) from None
        except BrokenPipeError:
            # The reader went away (`memcli show | head`): not an error worth a traceback.
            _silence_stdout()
            raise typer.Exit(0) from None

    return wrapper  # type: ignore[return-value]


def _silence_stdout() -> None:
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def _settings(ctx: typer.Context, **flags: Any) -> "Settings":
    from memcli.config import Flags, resolve

    options = dict(ctx.obj or {})
    options.update({k: v for k, v in flags.items() if v is not None})
    return resolve(Flags(**options), os.environ, Path.cwd())


def _output(as_json: bool = False) -> "Output":
    from memcli.render import Output

    return Output(as_json=as_json)


@app.command()
@handled
def apply(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="[FILE|-]", help="Operations document.")] = "-",
    dry_run: DryRunOpt = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Write nothing if any operation is rejected.")
    ] = False,
    on_conflict: ConflictOpt = "fail",
    as_json: JsonOpt = False,
) -> None:
    """Validate an operations document and write it to the stores (one transaction)."""
    from memcli import core, render

    settings = _settings(ctx)
    text = core.read_text(source, "operations document")
    report = core.apply_text(settings, text, dry_run=dry_run, strict=strict,
                             on_conflict=on_conflict)
    render.apply_report(_output(as_json), report)
    raise typer.Exit(report.exit_code)


@app.command()
@handled
def index(
    ctx: typer.Context,
    level: LevelOpt = None,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 if out of date.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild MEMORY.md from the notes."""
    from memcli import core, render

    results = core.rebuild_index(_settings(ctx), level, check=check)
    render.index_results(_output(as_json), results, check=check)
    if check and not all(r.up_to_date and not r.broken for r in results):
        raise typer.Exit(1)


@app.command()
@handled
def context(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Print the memory block an agent puts in its system prompt."""
    from memcli import core, render

    render.context_block(_output(as_json), core.context(_settings(ctx)))


@app.command()
@handled
def show(
    ctx: typer.Context,
    note: Annotated[
        str | None, typer.Argument(help="File name, slug or title of one note.")
    ] = None,
    level: LevelOpt = None,
    paths: Annotated[bool, typer.Option("--paths", help="Print the store folders.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List the memory entries, or print one note."""
    from memcli import core, render

    settings = _settings(ctx)
    output = _output(as_json)
    if note is not None:
        render.one_note(output, core.show_note(settings, note, level))
    else:
        render.listing(output, core.list_entries(settings, level), paths=paths)


@app.command()
@handled
def rm(
    ctx: typer.Context,
    notes: Annotated[
        list[str], typer.Argument(metavar="NOTE...", help="File names, slugs or titles.")
    ],
    level: LevelOpt = None,
    dry_run: DryRunOpt = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Remove notes (and their index lines)."""
    from memcli import core, render

    settings = _settings(ctx)
    output = _output(as_json)
    targets = core.resolve_removal(settings, notes, level)
    if not dry_run and not yes and sys.stdin.isatty():
        output.note("memcli: about to remove:")
        render.removal_targets(output, targets)
        if not typer.confirm("Remove these notes?", err=True):
            raise typer.Exit(1)
    report = core.remove(settings, targets, dry_run=dry_run)
    render.apply_report(output, report)
    raise typer.Exit(report.exit_code)


@app.command()
@handled
def add(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="The memory; '-' reads it from stdin.")],
    level: Annotated[str, typer.Option("--level", "-l", help="project or user.")] = "project",
    note_type: Annotated[str, typer.Option(
        "--type", "-t", help="user_preference, correction_feedback, project_knowledge or "
        "reference_material."
    )] = "project_knowledge",
    title: Annotated[str | None, typer.Option(help="Defaults to the first sentence.")] = None,
    summary: Annotated[str | None, typer.Option(help="Defaults to the first sentence.")] = None,
    on_conflict: ConflictOpt = "fail",
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add one memory by hand, through the same validation and write path."""
    from memcli import core, render

    settings = _settings(ctx)
    body = core.read_text("-", "memory text") if text == "-" else text
    report = core.add(settings, level=level, note_type=note_type, text=body, title=title,
                      summary=summary, on_conflict=on_conflict, dry_run=dry_run)
    render.apply_report(_output(as_json), report)
    raise typer.Exit(report.exit_code)


@app.command()
@handled
def extract(
    ctx: typer.Context,
    input_path: Annotated[
        str, typer.Option("--input", "-i", metavar="FILE", help="Transcript file; '-' is stdin.")
    ] = "-",
    provider: Annotated[
        str | None, typer.Option(help="rules, openai or anthropic [env MEMCLI_PROVIDER].")
    ] = None,
    model: Annotated[str | None, typer.Option(help="Model name [env MEMCLI_MODEL].")] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="Server URL [env OPENAI_BASE_URL].")
    ] = None,
    timeout: Annotated[float | None, typer.Option(help="Seconds per request.")] = None,
    fmt: Annotated[
        str | None, typer.Option("--format", help="Force a transcript format (else detected).")
    ] = None,
    last_turn: Annotated[
        bool, typer.Option("--last-turn", help="Only the newest turn of a whole session.")
    ] = False,
    include_tools: Annotated[bool, typer.Option("--include-tools")] = False,
    include_thinking: Annotated[bool, typer.Option("--include-thinking")] = False,
    include_injected: Annotated[
        bool, typer.Option("--include-injected", help="Also injected context and summaries.")
    ] = False,
    no_redact: Annotated[
        bool, typer.Option("--no-redact", help="Send secrets in the transcript as they are.")
    ] = False,
    allow_delete: Annotated[
        bool, typer.Option("--allow-delete", help="Keep delete operations the model proposes.")
    ] = False,
    show_prompt: Annotated[
        bool, typer.Option("--show-prompt", help="Print the prompt that would be sent; stop.")
    ] = False,
    dry_run: DryRunOpt = False,
    apply_now: Annotated[bool, typer.Option("--apply", help="Write the operations.")] = False,
    on_conflict: ConflictOpt = "fail",
    strict: Annotated[bool, typer.Option("--strict", help="Broken transcript lines fail.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Settings and usage.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Turn a transcript slice (JSONL on stdin) into memory operations."""
    from memcli import core, render
    from memcli.extract import ExtractOptions, run_extract

    settings = _settings(ctx, provider=provider, model=model, base_url=base_url, timeout=timeout)
    output = _output(as_json)
    text = core.read_text(input_path, "transcript")
    options = ExtractOptions(
        fmt=fmt, include_tools=include_tools, include_thinking=include_thinking,
        include_injected=include_injected, last_turn=last_turn, strict=strict,
        redact=not no_redact, allow_delete=allow_delete,
        show_prompt=show_prompt, dry_run=dry_run, apply=apply_now, on_conflict=on_conflict,
    )
    if verbose:
        render.settings_sources(output, settings)
    with render.Spinner(output) as spinner:
        result = run_extract(settings, text, options, on_progress=spinner.update)
    render.extract_result(output, result, verbose=verbose, show_prompt=show_prompt)
    raise typer.Exit(result.exit_code)


@app.command()
@handled
def config(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Show every setting and where its value came from."""
    from memcli import render

    render.settings_sources(_output(as_json), _settings(ctx), to_stdout=True)


@app.command()
@handled
def lint(
    ctx: typer.Context,
    paths: Annotated[
        list[str] | None,
        typer.Argument(metavar="[PATH]...", help="Store folders, MEMORY.md files or notes."),
    ] = None,
    fix: Annotated[bool, typer.Option("--fix", help="Repair what can be repaired safely.")] = False,
    output_format: Annotated[
        str, typer.Option("--format", "-f", help="text, json or github.")
    ] = "text",
    strict: Annotated[bool, typer.Option("--strict", help="Warnings fail too.")] = False,
) -> None:
    """Check stores for broken, drifting, duplicate or secret-holding notes."""
    from memcli import lint as linting
    from memcli import render
    from memcli.errors import UsageError

    if output_format not in render.LINT_FORMATS:
        choices = ", ".join(render.LINT_FORMATS)
        raise UsageError(f"unknown --format '{output_format}'; use {choices}")
    settings = _settings(ctx)
    report = linting.run_lint(settings, paths or [], fix=fix)
    render.lint_report(_output(output_format == "json"), report, output_format)
    raise typer.Exit(report.exit_code(strict=strict))


hook_app = typer.Typer(help="Entry points for agent hooks (they never fail the agent).")
import_app = typer.Typer(help="Bring memory from other tools into memcli.")
export_app = typer.Typer(help="Write memcli stores in other tools' formats.")
app.add_typer(hook_app, name="hook")
app.add_typer(import_app, name="import")
app.add_typer(export_app, name="export")


@hook_app.command("claude-code")
def hook_claude_code(ctx: typer.Context) -> None:
    """Handle a Claude Code hook payload on stdin (Stop, SessionStart); always exits 0."""
    from memcli.hooks import run_claude_code_hook

    # Fails open by design: the hook logs its own errors and never breaks the agent's session.
    try:
        cwd = Path.cwd()
    except OSError:  # the working folder was deleted; the payload's cwd is used anyway
        cwd = Path(os.sep)
    sys.stdout.write(run_claude_code_hook(dict(ctx.obj or {}), os.environ, cwd))


@import_app.command("claude-code")
@handled
def import_claude_code(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(help="A Claude Code memory folder.")],
    level: Annotated[str, typer.Option("--level", "-l", help="project or user.")] = "project",
    dry_run: DryRunOpt = False,
    on_conflict: ConflictOpt = "fail",
    as_json: JsonOpt = False,
) -> None:
    """Convert a Claude Code auto-memory folder into memcli notes."""
    from memcli import render
    from memcli.claude_code import import_folder

    result = import_folder(_settings(ctx), folder, level=level, dry_run=dry_run,
                           on_conflict=on_conflict)
    output = _output(as_json)
    render.import_result(output, result)
    raise typer.Exit(result.exit_code)


@export_app.command("claude-code")
@handled
def export_claude_code(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(help="Folder to write the Claude Code memory to.")],
    level: Annotated[str, typer.Option("--level", "-l", help="project or user.")] = "project",
    as_json: JsonOpt = False,
) -> None:
    """Write a memcli store as a Claude Code memory folder."""
    from memcli import render
    from memcli.claude_code import export_store

    result = export_store(_settings(ctx), folder, level=level)
    render.export_result(_output(as_json), result)
    raise typer.Exit(result.exit_code)


@app.command()
@handled
def completion(
    shell: Annotated[str, typer.Argument(help="bash, zsh or fish.")],
) -> None:
    """Print the shell completion script (also installed with the package)."""
    from memcli.completions import completion_script

    sys.stdout.write(completion_script(shell))


def main() -> None:
    if sys.argv[1:] == ["--version"]:
        # Answered before typer builds the command tree, which is a tenth of the start-up
        # time and not needed here; the output is the same as the --version option's.
        sys.stdout.write(f"memcli {__version__}\n")
        return
    if "_MEMCLI_COMPLETE" in os.environ:
        # TAB completion: typer's shell classes are registered only when asked for, since
        # add_completion=False keeps --install-completion out of the help.
        from memcli.completions import register_shells

        register_shells()
    # memcli allocates many small, long-lived objects (one per note) and frees none of them
    # before it exits: the default thresholds collect over and over for nothing (measured:
    # lint on 10,000 notes per level 2.13 s -> 1.92 s, same peak memory).
    gc.set_threshold(100_000, 20, 100)
    app()
