"""Commands that read and write the stores: apply, add, rm, show, context, index."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
import sys
from typing import Annotated

import typer

from memcli.cli import _complete
from memcli.cli._app import (
    NOTE_TYPES,
    ConflictOpt,
    DryRunOpt,
    JsonOpt,
    LevelOpt,
    OneLevelOpt,
    command,
    exclusive,
    finish,
)
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, read_input, resolve_settings
from memcli.errors import ExitStatus

NoteArg = Annotated[str | None, typer.Argument(
    metavar="[NOTE]", autocompletion=_complete.note_name,
    help="project/NAME.md, a path to the note, its file name (with or without .md), its slug "
    "or its title.",
)]


@command(section="everyday", rank=20)
@handled
def apply(
    ctx: typer.Context,
    source: Annotated[str, typer.Argument(metavar="[FILE|-]", help="Operations document.")] = "-",
    dry_run: DryRunOpt = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Write nothing if any operation is rejected.")
    ] = False,
    on_conflict: ConflictOpt = "fail",
    allow_delete: Annotated[bool, typer.Option(
        "--allow-delete", help="Also apply the deletes a `memcli consolidate` document proposes."
    )] = False,
    store: Annotated[str | None, typer.Option(
        "--store", metavar="TEAM",
        help="Propose the change to a team store: a commit on a new branch of its clone, "
        "not pushed.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Validate operations and write them in one transaction.

    Reads an operations document (a JSON array, an {"operations": [...]} object, or an LLM's
    reply that holds one, fences and prose included) from FILE or stdin, checks every
    operation against the stores, and writes the notes and MEMORY.md of both stores.

    With --store TEAM the operations go to that team store's clone instead, committed on a
    new branch; the command that pushes it for review is printed, and nothing is pushed.

    \b
    Examples:
      memcli extract --show-prompt < turn.jsonl | llm | memcli apply --dry-run -
      memcli apply --store platform ops.json
    """
    from memcli.commands.apply import apply_text
    from memcli.render.store import apply_report

    settings = resolve_settings(ctx)
    text = read_input(source, "operations document")
    if store is not None:
        import os

        from memcli.commands.gitstore.team_apply import apply_to_team
        from memcli.render.store import team_apply

        result = apply_to_team(settings, store, text, os.environ, dry_run=dry_run,
                               strict=strict, on_conflict=on_conflict)
        team_apply(make_output(as_json), result)
        finish(result)
    report = apply_text(settings, text, dry_run=dry_run, strict=strict,
                        on_conflict=on_conflict, allow_delete=allow_delete)
    apply_report(make_output(as_json), report)
    finish(report)


@command(section="everyday", rank=30)
@handled
def add(
    ctx: typer.Context,
    text: Annotated[str, typer.Argument(help="The memory; '-' reads it from stdin.")],
    level: OneLevelOpt = None,
    note_type: Annotated[str | None, typer.Option(
        "--type", "-t", metavar="TYPE", autocompletion=_complete.note_type,
        help=f"Note type: {NOTE_TYPES} (aliases: preference, feedback, knowledge, "
        "reference). Default: "
        "user_preference at user level, project_knowledge at project level.",
    )] = None,
    title: Annotated[str | None, typer.Option(
        metavar="TEXT", help="Defaults to the first sentence.")] = None,
    summary: Annotated[str | None, typer.Option(
        metavar="TEXT", help="Defaults to the first sentence, shortened.")] = None,
    expires: Annotated[str | None, typer.Option(
        metavar="DATE", help="After this day (YYYY-MM-DD) context leaves the note out.")] = None,
    cite: Annotated[list[str] | None, typer.Option(
        "--cite", metavar="PATH[:LINES]",
        help="A file the note is about (PATH, PATH:10-20 or PATH#symbol, relative to the "
        "repository root), pinned now; `memcli verify` says when it changes. Repeatable.",
    )] = None,
    on_conflict: ConflictOpt = "fail",
    dry_run: DryRunOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Add one memory by hand, through the same checks as apply.

    Writes one note and MEMORY.md in the chosen store. Level and type agree by default: a
    user-level note is a user_preference, and --type preference puts the note in the user
    store unless --level says otherwise.

    \b
    Examples:
      memcli add "Run go test ./... before tagging a release."
      memcli add --level user "Answer in English, briefly."
      memcli add --expires 2026-12-24 "Code freeze: no merges to main."
      memcli add --cite scripts/deploy.sh "Deploy with it; it needs the VPN."
    """
    from memcli.commands.edit import add as add_note
    from memcli.render.store import apply_report

    settings = resolve_settings(ctx)
    body = read_input("-", "memory text") if text == "-" else text
    report = add_note(settings, level=level, note_type=note_type, text=body, title=title,
                      summary=summary, on_conflict=on_conflict, dry_run=dry_run,
                      expires=expires, cites=cite or ())
    apply_report(make_output(as_json), report)
    finish(report)


@command(section="everyday", rank=80)
@handled
def rm(
    ctx: typer.Context,
    notes: Annotated[list[str], typer.Argument(
        metavar="NOTE...", autocompletion=_complete.note_name,
        help="project/NAME.md, paths, file names, slugs or titles.",
    )],
    level: LevelOpt = None,
    dry_run: DryRunOpt = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Remove notes and their index lines.

    Asks first when stdin is a terminal. Nothing is removed when any name is unknown or
    ambiguous.

    \b
    Example:
      memcli rm project/reference_material_old-wiki.md --dry-run
    """
    from memcli.commands.edit import remove
    from memcli.commands.lookup import resolve_removal
    from memcli.render.store import apply_report, removal_targets

    settings = resolve_settings(ctx)
    output = make_output(as_json)
    targets = resolve_removal(settings, notes, level)
    if not dry_run and not yes and sys.stdin.isatty():
        output.note("memcli: about to remove:")
        removal_targets(output, targets)
        if not typer.confirm("Remove these notes?", err=True):
            output.note("memcli: nothing removed")
            finish(ExitStatus.REJECTED)
    report = remove(settings, targets, dry_run=dry_run)
    apply_report(output, report)
    finish(report)


@command(section="everyday", rank=40)
@handled
def show(
    ctx: typer.Context,
    note: NoteArg = None,
    level: LevelOpt = None,
    paths: Annotated[bool, typer.Option("--paths", help="Print the store folders.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List the memory entries, or print one note.

    Reads the stores; writes nothing.

    \b
    Examples:
      memcli show
      memcli show project/project_knowledge_build.md
      memcli show --paths
    """
    from memcli.commands.lookup import list_entries, show_note
    from memcli.render.store import listing, one_note

    exclusive(NOTE=note is not None, paths=paths)
    settings = resolve_settings(ctx)
    output = make_output(as_json)
    if note is not None:
        one_note(output, show_note(settings, note, level))
    else:
        listing(output, list_entries(settings, level), paths=paths)


@command(section="everyday", rank=70)
@handled
def context(
    ctx: typer.Context,
    budget: Annotated[int | None, typer.Option(
        "--budget", "-b", min=1, max=10_000_000, metavar="TOKENS",
        help="Most tokens to print (an estimate: 4 characters a token, 1 per CJK character)."
    )] = None,
    level: LevelOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the memory block an agent puts in its system prompt.

    Reads both indexes (project first), at most 200 lines and 25 KiB (and --budget tokens);
    writes nothing.

    \b
    Example:
      memcli context --budget 2000 >> system-prompt.md
    """
    from memcli.commands.context import context as context_of
    from memcli.render.store import context_block

    context_block(make_output(as_json), context_of(resolve_settings(ctx), budget, level))


@command(section="plumbing", rank=10)
@handled
def index(
    ctx: typer.Context,
    level: LevelOpt = None,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 if out of date.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild MEMORY.md from the notes.

    Reads the notes and rewrites MEMORY.md when it differs (a person's header lines kept).

    \b
    Example:
      memcli index --check   # in CI: exit 1 when MEMORY.md is out of date
    """
    from memcli.commands.reindex import rebuild_index
    from memcli.render.store import index_results

    results = rebuild_index(resolve_settings(ctx), level, check=check)
    index_results(make_output(as_json), results, check=check)
    if check and not all(r.up_to_date and not r.broken for r in results):
        finish(ExitStatus.REJECTED)
