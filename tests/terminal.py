"""Run memcli in a real pseudo-terminal, 80 columns by 24 lines, as a person's shell does."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Screen:
    status: int
    text: str  # what the terminal showed, stdout and stderr interleaved, "\r\n" as "\n"

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()


def run_in_terminal(args: list[str], env: Mapping[str, str], cwd: Path, *,
                    keys: bytes = b"", after: bytes = b"", columns: int = 80, rows: int = 24,
                    timeout: float = 60.0) -> Screen:
    """Run `python -m memcli ARGS` with a terminal of COLUMNS x ROWS for stdin, stdout and
    stderr; KEYS are typed once the screen shows AFTER (at once when it is empty), as a
    person answers a prompt. COLUMNS is not set in the environment: the width comes from
    the terminal, as it does for a person."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    environment = {k: v for k, v in env.items() if k not in ("COLUMNS", "LINES")}
    environment.setdefault("TERM", "xterm")
    proc = subprocess.Popen([sys.executable, "-m", "memcli", *args], stdin=follower,
                            stdout=follower, stderr=follower, cwd=cwd, env=environment,
                            start_new_session=True)
    os.close(follower)
    chunks: list[bytes] = []
    if keys and not after:
        os.write(leader, keys)
        keys = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([leader], [], [], 0.1)
        if ready:
            try:
                data = os.read(leader, 65536)
            except OSError:  # the follower side closed: the process is gone
                break
            if not data:
                break
            chunks.append(data)
            if keys and after in b"".join(chunks):
                os.write(leader, keys)
                keys = b""
        elif proc.poll() is not None:
            break
    os.close(leader)
    status = proc.wait(timeout=timeout)
    return Screen(status, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n"))
