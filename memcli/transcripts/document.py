"""The stable JSON document of ``memcli transcript --json``: what was read, what was not."""

from __future__ import annotations

from typing import Any

from memcli.transcripts.model import Transcript


def as_document(transcript: Transcript) -> dict[str, Any]:
    """``{"formats", "messages": [{"role", "format", "text", "timestamp"}], "skipped", ...}``.

    ``skipped`` counts what was left out and why: pieces of messages by reason (``tool``,
    ``thinking``, ``injected``, ``slash command``, ``duplicate``, ...), ``records without a
    message`` (headers, metadata), ``unknown records`` by kind and ``lines not JSON``.
    """
    unknown = sum(transcript.unknown.values())
    skipped: dict[str, Any] = dict(sorted(transcript.dropped.items()))
    skipped["records without a message"] = transcript.skipped - unknown
    skipped["unknown records"] = dict(sorted(transcript.unknown.items()))
    skipped["lines not JSON"] = transcript.broken
    return {
        "formats": transcript.formats,
        "messages": [
            {"role": m.role, "format": fmt, "text": m.text, "timestamp": m.timestamp}
            for m, fmt in zip(transcript.messages, transcript.message_formats, strict=True)
        ],
        "skipped": skipped,
        "records": transcript.records,
        "lines": transcript.lines,
        "truncated": transcript.truncated,
    }
