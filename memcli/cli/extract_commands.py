"""Commands that read transcripts and talk to extractors: extract, config."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli import compiled_regex
from memcli.cli import _complete
from memcli.cli._app import (
    PROVIDERS,
    ConflictOpt,
    DryRunOpt,
    IncludeInjectedOpt,
    IncludeThinkingOpt,
    IncludeToolsOpt,
    JsonOpt,
    TranscriptFormatOpt,
    command,
    exclusive,
    finish,
    last_turn_option,
    strict_option,
)
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings
from memcli.cli.transcript_command import transcript_text
from memcli.errors import ExitStatus


@command(section="everyday", rank=10)
@handled
def extract(
    ctx: typer.Context,
    input_path: Annotated[
        str, typer.Option("--input", "-i", metavar="FILE",
                          help="Transcript file or session folder; '-' is stdin.")
    ] = "-",
    provider: Annotated[str | None, typer.Option(
        metavar="NAME", autocompletion=_complete.provider,
        help=f"The extractor: {PROVIDERS} [env MEMCLI_PROVIDER; default: rules, offline].",
    )] = None,
    model: Annotated[str | None, typer.Option(
        metavar="NAME", help="Model name [env MEMCLI_MODEL].")] = None,
    base_url: Annotated[str | None, typer.Option(
        "--base-url", metavar="URL",
        help="Server URL [env MEMCLI_BASE_URL, then OPENAI_BASE_URL or ANTHROPIC_BASE_URL].",
    )] = None,
    timeout: Annotated[float | None, typer.Option(
        metavar="SECONDS", min=0, max=86_400,
        help="Deadline of the model request, retries included [env MEMCLI_TIMEOUT].")] = None,
    fmt: TranscriptFormatOpt = None,
    last_turn: Annotated[bool, last_turn_option(
        "Only the newest turn of a whole session.")] = False,
    include_tools: IncludeToolsOpt = False,
    include_thinking: IncludeThinkingOpt = False,
    include_injected: IncludeInjectedOpt = False,
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
    propose: Annotated[bool, typer.Option(
        "--propose", help="Leave the operations in the review inbox (`memcli review`).")
    ] = False,
    on_conflict: ConflictOpt = "update",
    explain: Annotated[bool, typer.Option(
        "--explain", help="Say which sentence gave each operation and why; and why the "
        "other messages gave none (on stderr; in --json under \"explain\")."
    )] = False,
    strict: Annotated[bool, strict_option(
        "Transcript lines of unknown shape or broken JSON fail.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Settings and usage.")] = False,
    session_id: Annotated[str | None, typer.Option(
        "--session-id", help="The agent session, recorded in the history.", hidden=True
    )] = None,
    transcript_path: Annotated[str | None, typer.Option(
        "--transcript", help="The transcript file, recorded in the history.", hidden=True
    )] = None,
    via: Annotated[str | None, typer.Option(
        "--via", help="The hook that ran this, recorded in the history.", hidden=True
    )] = None,
    no_project: Annotated[bool, typer.Option(
        "--no-project", help="Unattended: create no project store outside a git work tree.",
        hidden=True,
    )] = False,
    job: Annotated[str | None, typer.Option(
        "--job", help="The hook job this runs, recorded in the history.", hidden=True
    )] = None,
    agent: Annotated[str | None, typer.Option(
        "--agent", help="The agent whose hook queued this (for --provider auto).", hidden=True
    )] = None,
    as_json: JsonOpt = False,
) -> None:
    """Turn a transcript slice into memory operations.

    Reads a transcript (JSONL of any supported agent) from stdin or --input and prints the
    operations document for `memcli apply`; --dry-run shows them as a diff instead, --apply
    writes them to the stores, --json adds what was read and rejected. The default
    extractor (rules) is offline.

    \b
    Examples:
      memcli extract < examples/turn.jsonl
      memcli extract --apply --last-turn -i ~/.claude/projects/X/SESSION.jsonl
      memcli extract --json < turn.jsonl > ops.json
      memcli apply --dry-run ops.json
    """
    from memcli.commands.extract import ExtractOptions, run_extract
    from memcli.render.extraction import extract_result, ignored_settings, settings_sources
    from memcli.render.output import IndexProgress, ReadProgress, Spinner

    exclusive(apply=apply_now, dry_run=dry_run)
    exclusive(apply=apply_now, propose=propose)
    exclusive(propose=propose, dry_run=dry_run)
    exclusive(apply=apply_now, show_prompt=show_prompt)

    settings = resolve_settings(ctx, provider=provider, model=model, base_url=base_url,
                                timeout=timeout)
    if no_project:  # a hook's job: the hook found the project level closed
        settings = settings.without_project()
    output = make_output(as_json)
    # The patterns' programs are kept between runs (memcli/compiled_regex.py): a turn
    # otherwise spends a quarter of its CPU compiling the same patterns again. Saved below,
    # after the run (a transcript that cannot be read compiles little).
    compiled_regex.use(settings.user_home / "cache" / "regex")
    text = transcript_text(
        input_path, "pipe one in (memcli extract < SESSION.jsonl) or pass --input FILE")
    options = ExtractOptions(
        fmt=fmt, include_tools=include_tools, include_thinking=include_thinking,
        include_injected=include_injected, last_turn=last_turn, strict=strict,
        redact=not no_redact, allow_delete=allow_delete,
        show_prompt=show_prompt, dry_run=dry_run, apply=apply_now, propose=propose,
        on_conflict=on_conflict,
        explain=explain,
        session=session_id, via=via, job=job, agent=agent,
        transcript=transcript_path or (input_path if input_path != "-" else None),
    )
    if verbose:
        settings_sources(output, settings)
    else:
        ignored_settings(output, settings)
    try:
        # Reading every note afresh (a first run, or the first after an upgrade) takes
        # seconds on a big store: said on a terminal, as search's build is.
        anew = "reading the {level} notes anew (a first run, or after an upgrade)"
        with ReadProgress(output) as reading, Spinner(output) as spinner, IndexProgress(
                output, anew) as notes:
            result = run_extract(settings, text, options, on_progress=spinner.update,
                                 on_read=reading.update, on_notes=notes.update)
    finally:
        compiled_regex.save()
    extract_result(output, result, verbose=verbose, show_prompt=show_prompt)
    finish(result)


@command(section="agents and integrations", rank=60)
@handled
def config(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Show every setting and where its value came from.

    Reads the flags, the environment and both config files; writes nothing.

    \b
    Example:
      memcli config --json
    """
    from memcli.render.extraction import settings_sources

    settings = resolve_settings(ctx)
    auto = None
    if settings.provider == "auto" and not settings.problems:
        from memcli.providers.auto import choose

        # Without a hook, no agent: what `memcli extract` run here would use.
        choice = choose(settings.env, None, settings.base_url)
        auto = (choice.provider, choice.reason)
    settings_sources(make_output(as_json), settings, to_stdout=True, auto=auto)
    finish(ExitStatus.USAGE if settings.problems or settings.teams_problem else None)
