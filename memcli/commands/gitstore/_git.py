"""Running git: one place for the command line, its environment and its errors."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from memcli.errors import MemcliError, UsageError


class GitError(MemcliError):
    """A git command failed; the message names the command and git's own words."""


def run(folder: Path, args: Sequence[str], env: Mapping[str, str], *,
        check: bool = True) -> subprocess.CompletedProcess[str]:
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True,
                              text=True, env=dict(env), check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed or not on PATH") from None
    if check and done.returncode != 0:
        reason = _reason(done.stderr or done.stdout)
        if ".lock': File exists" in reason:
            # A git killed mid-command (memcli sync killed with its children) leaves its
            # lock, and every later git there fails; only the person can tell it is stale.
            reason += (" (a git that was killed leaves this lock behind: if no git runs in "
                       f"{folder}, remove the file and run the command again)")
        raise GitError(f"git {_subcommand(args)} failed: {reason}")
    return done


def _subcommand(args: Sequence[str]) -> str:
    """The git command ARGS run, past the `-c KEY=VALUE` options in front of it."""
    rest = list(args)
    while len(rest) > 2 and rest[0] == "-c":
        rest = rest[2:]
    return rest[0] if rest else "(no command)"


def _reason(said: str) -> str:
    """What git said went wrong, on one line: up to its first fatal or error line.

    Its last line is often the tail of advice ("and the repository exists."); what comes
    before the first fatal line ("ssh: Could not resolve hostname ...", "! [rejected]") is
    the cause, and the hints and the "To URL" line say nothing about it.
    """
    lines = [line.strip() for line in said.splitlines() if line.strip()]
    kept: list[str] = []
    for line in lines:
        if line.startswith(("hint:", "To ")):
            continue
        kept.append(line)
        if line.startswith(("fatal:", "error:")):
            return "; ".join(kept)
    return "; ".join(kept) or "no output"


def is_repository(folder: Path, env: Mapping[str, str]) -> bool:
    done = run(folder, ["rev-parse", "--is-inside-work-tree"], env, check=False)
    return done.returncode == 0 and done.stdout.strip() == "true"


def top_level(folder: Path, env: Mapping[str, str]) -> Path:
    return Path(run(folder, ["rev-parse", "--show-toplevel"], env).stdout.strip())
