"""Commands that read transcripts and talk to extractors: extract, config."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from typing import Annotated

import typer

from memcli.cli._app import (
    ConflictOpt,
    DryRunOpt,
    JsonOpt,
    app,
    finish,
    make_output,
    resolve_settings,
)
from memcli.cli._errors import handled


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

    settings = resolve_settings(ctx, provider=provider, model=model, base_url=base_url,
                                timeout=timeout)
    output = make_output(as_json)
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
    finish(result.exit_code)


@app.command()
@handled
def config(ctx: typer.Context, as_json: JsonOpt = False) -> None:
    """Show every setting and where its value came from."""
    from memcli import render

    render.settings_sources(make_output(as_json), resolve_settings(ctx), to_stdout=True)
