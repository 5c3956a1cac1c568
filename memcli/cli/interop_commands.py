"""`memcli import|export claude-code|codex|gemini`: other agents' memory, in and out.

Claude Code's auto-memory folder, Codex's memories folder and Gemini CLI's GEMINI.md. The
six commands take the same options and differ only in their text, their default level and
the core function they call, so each is one `_Tool` row of the tables below.
"""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from memcli.cli._app import (
    CommandGroup,
    ConflictOpt,
    DryRunOpt,
    JsonOpt,
    command_group,
    finish,
)
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings

if TYPE_CHECKING:
    from memcli.commands.interop.results import ExportResult, ImportResult

import_app = command_group("import", help="Bring memory from other tools into memcli.",
                           section="agents and integrations", rank=40)
export_app = command_group("export", help="Write memcli stores in other tools' formats.",
                           section="agents and integrations", rank=50)

UserLevelOpt = Annotated[str, typer.Option("--level", "-l", help="project or user.")]


@dataclass(frozen=True)
class _Tool:
    """One import or export command."""

    name: str  # the subcommand: claude-code, codex, gemini
    run: str  # the core function, "module:function", imported when the command runs
    argument: str  # the argument's name, as --help shows it
    argument_help: str
    level: str  # the default --level
    doc: str  # the command's --help text
    render: str = "file_export_result"  # an export's renderer in memcli.render.integration


def _core(tool: _Tool) -> Callable[..., Any]:
    module, function = tool.run.split(":")
    found: Callable[..., Any] = getattr(importlib.import_module(module), function)
    return found


def _argument(tool: _Tool) -> Any:
    return typer.Argument(metavar=tool.argument, help=tool.argument_help)


def _import_command(tool: _Tool) -> None:
    def command(
        ctx: typer.Context,
        source: Annotated[Path, _argument(tool)],
        level: UserLevelOpt = tool.level,
        dry_run: DryRunOpt = False,
        on_conflict: ConflictOpt = "fail",
        as_json: JsonOpt = False,
    ) -> None:
        from memcli.render.integration import import_result

        result: ImportResult = _core(tool)(resolve_settings(ctx), source, level=level,
                                           dry_run=dry_run, on_conflict=on_conflict)
        import_result(make_output(as_json), result)
        finish(result)

    _register(import_app, tool, command)


def _export_command(tool: _Tool) -> None:
    def command(
        ctx: typer.Context,
        target: Annotated[Path, _argument(tool)],
        level: UserLevelOpt = tool.level,
        dry_run: DryRunOpt = False,
        as_json: JsonOpt = False,
    ) -> None:
        from memcli.render import integration

        result: ExportResult = _core(tool)(resolve_settings(ctx), target, level=level,
                                           dry_run=dry_run)
        getattr(integration, tool.render)(make_output(as_json), result)
        finish(result)

    _register(export_app, tool, command)


def _register(app: CommandGroup, tool: _Tool, command: Callable[..., None]) -> None:
    command.__doc__ = tool.doc
    app.command(tool.name)(handled(command))


_IMPORTS = (
    _Tool("claude-code", "memcli.commands.interop.claude_import:import_folder", "folder",
          "A Claude Code memory folder.", "project", """
Convert a Claude Code auto-memory folder into memcli notes.

Reads FOLDER (its MEMORY.md and notes) and writes notes into the chosen store.

\b
Example:
  memcli import claude-code ~/.claude/projects/X/memory --dry-run
"""),
    _Tool("codex", "memcli.commands.interop.codex:import_codex", "folder",
          "Codex's memories folder.", "user", """
Convert Codex's memories (MEMORY.md blocks, memory_summary.md) into memcli notes.

Reads FOLDER (never through a symbolic link) and writes notes into the chosen store
(default: user, since Codex's memories are yours across projects).

\b
Example:
  memcli import codex ~/.codex/memories --dry-run
"""),
    _Tool("gemini", "memcli.commands.interop.gemini:import_gemini", "path",
          "A GEMINI.md, or the folder holding it.", "project", """
Convert Gemini CLI's saved memories (the "Gemini Added Memories" bullets) into notes.

Reads PATH (never through a symbolic link) and writes one note per bullet into the
chosen store; the rest of GEMINI.md is instructions and is not imported.

\b
Example:
  memcli import gemini ~/.gemini/GEMINI.md --level user
"""),
)
_EXPORTS = (
    _Tool("claude-code", "memcli.commands.interop.claude_export:export_store", "folder",
          "Folder to write the Claude Code memory to.", "project", """
Write a memcli store as a Claude Code memory folder.

Reads one store and writes its notes and MEMORY.md into FOLDER.

\b
Example:
  memcli export claude-code --level user /tmp/claude-memory
""", render="export_result"),
    _Tool("codex", "memcli.commands.interop.codex:export_codex", "folder",
          "Folder to write Codex's MEMORY.md in.", "user", """
Write a store's notes as Codex MEMORY.md blocks, keeping Codex's own blocks.

Reads one store and writes FOLDER/MEMORY.md (memcli's blocks are marked and replaced
on the next export; memory_summary.md is not touched).

\b
Example:
  memcli export codex ~/.codex/memories
"""),
    _Tool("gemini", "memcli.commands.interop.gemini:export_gemini", "path",
          "A GEMINI.md, or the folder holding it.", "project", """
Add a store's notes to GEMINI.md's saved memories, one bullet each; removes nothing.

Reads one store and writes PATH (created if missing; bullets already there are kept).

\b
Example:
  memcli export gemini --level user ~/.gemini/GEMINI.md
"""),
)
for _tool in _IMPORTS:
    _import_command(_tool)
for _tool in _EXPORTS:
    _export_command(_tool)


# The agents' own rule files: one marked block each, sized to what the tool reads.
_RULE_FILES = {
    "agents-md": "AGENTS.md (Codex, and the agents that read AGENTS.md)",
    "claude-md": "CLAUDE.md (Claude Code)",
    "gemini-md": "GEMINI.md (Gemini CLI)",
    "copilot-instructions": ".github/copilot-instructions.md (GitHub Copilot)",
    "cursor-rules": ".cursor/rules/memcli.mdc (Cursor)",
    "windsurf-rules": ".windsurf/rules/memcli.md (Windsurf)",
}


def _rule_file_command(name: str, what: str) -> None:
    def command(
        ctx: typer.Context,
        root: Annotated[Path | None, typer.Argument(
            metavar="[ROOT]", help="The repository to write in (default: the project root).")]
        = None,
        level: Annotated[list[str] | None, typer.Option(
            "--level", "-l", help="project, user or all; repeat for several (default: project).")]
        = None,
        note_type: Annotated[list[str] | None, typer.Option(
            "--type", "-t", help="Only notes of this type; repeat for several.")] = None,
        dry_run: DryRunOpt = False,
        check: Annotated[bool, typer.Option(
            "--check", help="Write nothing; exit 1 when the block is stale (for CI).")] = False,
        as_json: JsonOpt = False,
    ) -> None:
        from memcli.commands.interop.rule_files import export_rule_file
        from memcli.render.integration import rule_file_export

        result = export_rule_file(resolve_settings(ctx), name, root,
                                  levels=tuple(level or ("project",)),
                                  types=tuple(note_type or ()), dry_run=dry_run, check=check)
        rule_file_export(make_output(as_json), result)
        finish(result)

    command.__doc__ = f"""
Write the notes into {what}, inside a marked block.

A re-export replaces the block and touches nothing else in the file; the block holds what
fits within the tool's documented size, corrections first.

\b
Examples:
  memcli export {name} --dry-run
  memcli export {name} --check
"""
    export_app.command(name)(handled(command))


for _name, _what in _RULE_FILES.items():
    _rule_file_command(_name, _what)
