"""A transcript piped into `memcli extract` or `memcli transcript`: past a few MiB it is
copied to a temporary file and read as a file is (from its end for the last turn), so what
memcli holds does not grow with what is piped in. In process with a real pipe (memory is
measured with tracemalloc), and as a subprocess."""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import threading
import tracemalloc
from collections.abc import Iterator
from typing import BinaryIO

import pytest
from conftest import MemEnv

from memcli.cli.transcript_command import SPOOL_AFTER

MEMORABLE = "Remember that the test command is make check."


def session(turns: int) -> bytes:
    """A Claude Code session of TURNS long prompts and short answers, then MEMORABLE."""
    lines = []
    parent = None
    for n in range(turns):
        for kind, uuid, content in (
                ("user", f"u{n}", f"turn {n}: " + "please read this log line " * 120),
                ("assistant", f"a{n}", [{"type": "text", "text": f"read {n}"}])):
            lines.append(json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent,
                                     "sessionId": "s", "message": {"role": kind,
                                                                   "content": content}}))
            parent = uuid
    lines.append(json.dumps({"type": "user", "uuid": "last", "parentUuid": parent,
                             "sessionId": "s", "message": {"role": "user",
                                                           "content": MEMORABLE}}))
    return ("\n".join(lines) + "\n").encode()


@contextlib.contextmanager
def piped(data: bytes) -> Iterator[BinaryIO]:
    """A pipe that a thread fills with DATA, as `cat FILE |` does."""
    read_fd, write_fd = os.pipe()

    def feed() -> None:
        view = memoryview(data)
        with contextlib.suppress(BrokenPipeError):
            while view:
                view = view[os.write(write_fd, view[: 1 << 20]):]
        os.close(write_fd)

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        with os.fdopen(read_fd, "rb") as source:
            yield source
    finally:
        writer.join()


def test_a_long_piped_session_is_read_from_its_end_in_bounded_memory(
        memenv: MemEnv, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from memcli.cli import app

    data = session(8000)
    assert len(data) > 5 * SPOOL_AFTER
    with piped(data) as stdin:
        # typer's CliRunner takes stdin as bytes only: the app, with a real pipe as stdin
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
        tracemalloc.start()
        try:
            status = app(["transcript", "--last-turn", "--json", "-"], standalone_mode=False)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert status == 0
    found = json.loads(capsys.readouterr().out)
    assert [m["text"] for m in found["messages"]] == [MEMORABLE]
    assert found["records"] < 1000  # the end of the session, not all 16,001 records
    # what is held: the first SPOOL_AFTER bytes while they are copied, then one window
    assert peak < 2 * SPOOL_AFTER < len(data) / 2


def test_a_long_piped_session_is_extracted_whole_and_by_its_last_turn(memenv: MemEnv) -> None:
    data = session(6000)
    assert len(data) > 3 * SPOOL_AFTER
    last = memenv.run("extract", "--last-turn", "--json", input=data)
    assert last.returncode == 0, last.stderr
    report = json.loads(last.stdout)
    assert [op["title"] for op in report["operations"]] == ["Test command"]
    whole = memenv.run("transcript", "--json", "-", input=data)
    assert whole.returncode == 0, whole.stderr
    assert json.loads(whole.stdout)["records"] == 12_001
