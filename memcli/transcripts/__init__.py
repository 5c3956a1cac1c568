"""Read agent transcripts (JSONL and JSON documents written by many tools) into Messages.

Each format has its own reader module under ``formats/``, and one detection step
(:mod:`memcli.transcripts.detect`) labels every record by a shape specific to its format,
so a file may mix formats and a slice may start anywhere. What reaches the prompt by default
is what a person typed and what the assistant said; everything else (tool traffic,
reasoning, injected context) needs an explicit flag. Records no format claims are counted
as unknown, by kind.
"""

from memcli.transcripts.detect import BY_NAME, FORMATS
from memcli.transcripts.model import Format, Options, Transcript
from memcli.transcripts.reader import read_transcript, read_values
from memcli.transcripts.select import TRUNCATION_MARK

__all__ = [
    "BY_NAME",
    "FORMATS",
    "TRUNCATION_MARK",
    "Format",
    "Options",
    "Transcript",
    "read_transcript",
    "read_values",
]
