"""What to tell a person about a read: an error when nothing was readable, else warnings."""

from __future__ import annotations

from memcli.errors import InputError
from memcli.transcripts.model import Transcript

_HINT = "see memcli transcript --formats"


def is_empty(transcript: Transcript) -> bool:
    """Nothing but blank lines: a hook with nothing new to say, not a mistake."""
    return transcript.records == 0 and transcript.broken == 0 and not transcript.first_line


def check(transcript: Transcript, *, strict: bool = False) -> list[str]:
    """Raise :class:`InputError` when a non-empty input held no known record; otherwise the
    warnings about lines that were not read (fatal with ``strict``)."""
    if is_empty(transcript):
        return []
    if not transcript.formats and transcript.forced is not None:
        # The person's --format is the likelier mistake than the file.
        raise InputError(f"no {transcript.forced} messages found: {_seen(transcript)}; "
                         "without --format memcli detects the format itself")
    if not transcript.formats:
        raise InputError(f"no messages found: {_seen(transcript)}; {_HINT}")
    if not transcript.messages and (transcript.unknown or transcript.broken):
        # A format was recognised (a header line, say) but nothing was read as a message,
        # and records of other shapes (or lines that are not JSON) are beside it: they are
        # the conversation memcli did not read, and an empty read would pass for "the
        # session said nothing". (Known records alone with no message, a summary line, stay
        # a notice: nothing in the file was left unread.)
        raise InputError(f"no messages found: {_recognised(transcript)}; {_HINT}")
    unread = _unread(transcript)
    if not unread:
        return []
    if strict:
        raise InputError(f"transcript has {unread} (without --strict they are skipped)")
    return [f"transcript: skipped {unread}"]


def _seen(t: Transcript) -> str:
    lines = f"{t.lines} line{'s' if t.lines != 1 else ''}"
    first = t.first_line[:30]
    start = f' (the first starts with "{first}")' if first else ""
    if t.records == 0:
        return f"{lines}, none of them JSON{start}"
    kinds = _kinds(t)
    return f"{lines}, none a known transcript record ({kinds}){start}"


def _recognised(t: Transcript) -> str:
    lines = f"{t.lines} line{'s' if t.lines != 1 else ''}"
    shapes = ", ".join(f"{name}: {count}" for name, count in t.formats.items())
    return (f"{lines}, recognised as {shapes} but nothing read as a message, beside "
            f"{_unread(t)}")


def _unread(t: Transcript) -> str:
    parts = []
    unknown = sum(t.unknown.values())
    if unknown:
        parts.append(f"{unknown} record{'s' if unknown != 1 else ''} of unknown shape "
                     f"({_kinds(t)})")
    if t.broken:
        lines = "1 line that is" if t.broken == 1 else f"{t.broken} lines that are"
        parts.append(f"{lines} not JSON")
    return " and ".join(parts)


def _kinds(t: Transcript) -> str:
    ranked = sorted(t.unknown.items(), key=lambda kv: (-kv[1], kv[0]))
    shown = ", ".join(f"{kind}: {count}" for kind, count in ranked[:3])
    more = len(ranked) - 3
    return shown + (f", {more} more kinds" if more > 0 else "")
