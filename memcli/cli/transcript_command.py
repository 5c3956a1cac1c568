"""`memcli transcript`: print what memcli reads from a transcript, and what it skips."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, BinaryIO

import typer

from memcli.cli._app import (
    IncludeInjectedOpt,
    IncludeThinkingOpt,
    IncludeToolsOpt,
    JsonOpt,
    TranscriptFormatOpt,
    command,
    finish,
    last_turn_option,
    strict_option,
)
from memcli.cli._errors import handled
from memcli.cli._process_state import MAX_TRANSCRIPT_BYTES, make_output, read_input_bytes

if TYPE_CHECKING:
    from memcli.transcripts.source import TranscriptFile


def transcript_text(source: str, how: str = "pipe it in or pass a file"
                    ) -> "str | bytes | TranscriptFile":
    """What the transcript reader reads: a file where it lies (zstd-compressed too), the
    bytes of stdin for '-' (a temporary file holding them, past ``SPOOL_AFTER``), or a
    session folder (OpenCode) as text. HOW says what to do when stdin is a terminal."""
    from memcli.transcripts.source import TranscriptFile, folder_as_text

    if source != "-":
        path = Path(source)
        if path.is_dir():
            return folder_as_text(path)
        if path.is_file():
            return TranscriptFile(path, MAX_TRANSCRIPT_BYTES)
    elif (stdin := _file_on_stdin()) is not None:
        # the hook's worker hands each job its turn this way: read it where it lies too
        return TranscriptFile(Path("stdin"), MAX_TRANSCRIPT_BYTES, stdin)
    else:
        return _piped(how)
    return read_input_bytes(source, "transcript", MAX_TRANSCRIPT_BYTES, how)


# A pipe holding more than this is copied to a temporary file, read as a file is (from its
# end for the last turn, a line at a time otherwise): what is held stays this size however
# much is piped in.
SPOOL_AFTER = 4 * 1024 * 1024
_CHUNK = 1024 * 1024


def _piped(how: str) -> "bytes | TranscriptFile":
    """The bytes piped in; past ``SPOOL_AFTER`` of them, an unnamed temporary file holding
    them all (closed when the command ends), at most the most memcli reads."""
    import sys
    import tempfile

    from memcli.errors import InputError
    from memcli.transcripts.source import TranscriptFile

    head = read_input_bytes("-", "transcript", SPOOL_AFTER, how, refuse=False)
    if len(head) <= SPOOL_AFTER:
        return head
    most = MAX_TRANSCRIPT_BYTES // (1024 * 1024)
    try:
        # Unnamed, so nothing is left on disk whatever happens; closed when the TranscriptFile
        # that holds it is dropped (no click context: a plain install has no click).
        spool = tempfile.TemporaryFile()  # noqa: SIM115 - owned by the TranscriptFile
    except OSError as exc:
        raise InputError(f"stdin holds more than {SPOOL_AFTER // (1024 * 1024)} MiB and no "
                         f"temporary file can hold it ({exc.strerror}); pass the transcript "
                         "as a file") from None
    total = len(head)
    try:
        spool.write(head)
        del head  # held no longer than it takes to write it
        while chunk := sys.stdin.buffer.read(_CHUNK):
            total += len(chunk)
            if total > MAX_TRANSCRIPT_BYTES:
                raise InputError(f"the transcript in stdin is larger than {most} MiB, the "
                                 "most memcli reads; split it")
            spool.write(chunk)
        spool.seek(0)
    except OSError as exc:
        raise InputError(f"cannot copy stdin to a temporary file: {exc.strerror}") from None
    return TranscriptFile(Path("stdin"), MAX_TRANSCRIPT_BYTES, spool)


def _file_on_stdin() -> "BinaryIO | None":
    """stdin, when it is redirected from a regular file (which can be read from its end)."""
    import os
    import stat
    import sys

    try:
        handle = sys.stdin.buffer if sys.stdin is not None else None
        if handle is None or not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        handle.seek(handle.tell())  # seekable where it stands
    except (AttributeError, OSError, ValueError):
        return None
    return handle


@command(section="review and history", rank=70)
@handled
def transcript(
    source: Annotated[
        str, typer.Argument(metavar="[FILE|DIR|-]", help="Transcript file, session folder or -.")
    ] = "-",
    last_turn: Annotated[bool, last_turn_option("From the last message a person typed.")] = False,
    include_tools: IncludeToolsOpt = False,
    include_thinking: IncludeThinkingOpt = False,
    include_injected: IncludeInjectedOpt = False,
    fmt: TranscriptFormatOpt = None,
    strict: Annotated[bool, strict_option("Lines of unknown shape or broken JSON fail.")] = False,
    formats: Annotated[
        bool, typer.Option("--formats", help="List the formats and where agents keep logs.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Show what memcli reads from a transcript, and what it skips.

    Reads a transcript file, a session folder (OpenCode) or stdin, as `extract` would, and
    prints each message with its role and format; the counts of what was skipped, and why,
    go to stderr. Writes nothing. An input with nothing readable in it exits 2.

    \b
    Examples:
      memcli transcript ~/.claude/projects/X/SESSION.jsonl
      memcli transcript --last-turn --json < turn.jsonl
      memcli transcript --formats
    """
    from memcli.commands.transcript import ReadOptions, inspect_transcript, known_formats
    from memcli.render.extraction import transcript_formats, transcript_report
    from memcli.render.output import ReadProgress

    output = make_output(as_json)
    if formats:
        transcript_formats(output, known_formats())
        finish()
    options = ReadOptions(fmt=fmt, last_turn=last_turn, include_tools=include_tools,
                          include_thinking=include_thinking,
                          include_injected=include_injected, strict=strict)
    text = transcript_text(source)
    with ReadProgress(output) as progress:
        report = inspect_transcript(text, options, on_progress=progress.update)
    transcript_report(output, report)
    finish(report)
