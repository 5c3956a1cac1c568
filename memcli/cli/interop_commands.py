"""`memcli import|export claude-code|codex|gemini`: other agents' memory, in and out.

Claude Code's auto-memory folder, Codex's memories folder and Gemini CLI's GEMINI.md.
"""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from memcli.cli._app import (
    ConflictOpt,
    DryRunOpt,
    JsonOpt,
    command_group,
    finish,
    make_output,
    resolve_settings,
)
from memcli.cli._errors import handled

if TYPE_CHECKING:
    from memcli.interop.results import ExportResult, ImportResult

import_app = typer.Typer(help="Bring memory from other tools into memcli.")
export_app = typer.Typer(help="Write memcli stores in other tools' formats.")
command_group(import_app, "import", section="other tools", rank=20)
command_group(export_app, "export", section="other tools", rank=30)

UserLevelOpt = Annotated[str, typer.Option("--level", "-l", help="project or user.")]


@import_app.command("claude-code")
@handled
def import_claude_code(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(help="A Claude Code memory folder.")],
    level: UserLevelOpt = "project",
    dry_run: DryRunOpt = False,
    on_conflict: ConflictOpt = "fail",
    as_json: JsonOpt = False,
) -> None:
    """Convert a Claude Code auto-memory folder into memcli notes.

    Reads FOLDER (its MEMORY.md and notes) and writes notes into the chosen store.

    \b
    Example:
      memcli import claude-code ~/.claude/projects/X/memory --dry-run
    """
    from memcli.interop.claude_import import import_folder as run

    _imported(run(resolve_settings(ctx), folder, level=level, dry_run=dry_run,
                  on_conflict=on_conflict), as_json)


@import_app.command("codex")
@handled
def import_codex(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(help="Codex's memories folder.")],
    level: UserLevelOpt = "user",
    dry_run: DryRunOpt = False,
    on_conflict: ConflictOpt = "fail",
    as_json: JsonOpt = False,
) -> None:
    """Convert Codex's memories (MEMORY.md blocks, memory_summary.md) into memcli notes.

    Reads FOLDER (never through a symbolic link) and writes notes into the chosen store
    (default: user, since Codex's memories are yours across projects).

    \b
    Example:
      memcli import codex ~/.codex/memories --dry-run
    """
    from memcli.interop.codex import import_codex as run

    _imported(run(resolve_settings(ctx), folder, level=level, dry_run=dry_run,
                  on_conflict=on_conflict), as_json)


@import_app.command("gemini")
@handled
def import_gemini(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A GEMINI.md, or the folder holding it.")],
    level: UserLevelOpt = "project",
    dry_run: DryRunOpt = False,
    on_conflict: ConflictOpt = "fail",
    as_json: JsonOpt = False,
) -> None:
    """Convert Gemini CLI's saved memories (the "Gemini Added Memories" bullets) into notes.

    Reads PATH (never through a symbolic link) and writes one note per bullet into the
    chosen store; the rest of GEMINI.md is instructions and is not imported.

    \b
    Example:
      memcli import gemini ~/.gemini/GEMINI.md --level user
    """
    from memcli.interop.gemini import import_gemini as run

    _imported(run(resolve_settings(ctx), path, level=level, dry_run=dry_run,
                  on_conflict=on_conflict), as_json)


@export_app.command("claude-code")
@handled
def export_claude_code(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(help="Folder to write the Claude Code memory to.")],
    level: UserLevelOpt = "project",
    as_json: JsonOpt = False,
) -> None:
    """Write a memcli store as a Claude Code memory folder.

    Reads one store and writes its notes and MEMORY.md into FOLDER.

    \b
    Example:
      memcli export claude-code --level user /tmp/claude-memory
    """
    from memcli.interop.claude_export import export_store
    from memcli.render.integration import export_result

    result = export_store(resolve_settings(ctx), folder, level=level)
    export_result(make_output(as_json), result)
    finish(result.exit_code)


@export_app.command("codex")
@handled
def export_codex(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(help="Folder to write Codex's MEMORY.md in.")],
    level: UserLevelOpt = "user",
    as_json: JsonOpt = False,
) -> None:
    """Write a store's notes as Codex MEMORY.md blocks, keeping Codex's own blocks.

    Reads one store and writes FOLDER/MEMORY.md (memcli's blocks are marked and replaced
    on the next export; memory_summary.md is not touched).

    \b
    Example:
      memcli export codex ~/.codex/memories
    """
    from memcli.interop.codex import export_codex as run

    _exported(run(resolve_settings(ctx), folder, level=level), as_json)


@export_app.command("gemini")
@handled
def export_gemini(
    ctx: typer.Context,
    path: Annotated[Path, typer.Argument(help="A GEMINI.md, or the folder holding it.")],
    level: UserLevelOpt = "project",
    as_json: JsonOpt = False,
) -> None:
    """Add a store's notes to GEMINI.md's saved memories, one bullet each; removes nothing.

    Reads one store and writes PATH (created if missing; bullets already there are kept).

    \b
    Example:
      memcli export gemini --level user ~/.gemini/GEMINI.md
    """
    from memcli.interop.gemini import export_gemini as run

    _exported(run(resolve_settings(ctx), path, level=level), as_json)


def _imported(result: "ImportResult", as_json: bool) -> None:
    from memcli.render.integration import import_result

    import_result(make_output(as_json), result)
    finish(result.exit_code)


def _exported(result: "ExportResult", as_json: bool) -> None:
    from memcli.render.integration import file_export_result

    file_export_result(make_output(as_json), result)
    finish(result.exit_code)
