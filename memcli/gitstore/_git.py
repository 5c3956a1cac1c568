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
        said = (done.stderr or done.stdout).strip().splitlines()
        raise GitError(f"git {' '.join(args[:2])} failed: {said[-1] if said else 'no output'}")
    return done


def is_repository(folder: Path, env: Mapping[str, str]) -> bool:
    done = run(folder, ["rev-parse", "--is-inside-work-tree"], env, check=False)
    return done.returncode == 0 and done.stdout.strip() == "true"


def top_level(folder: Path, env: Mapping[str, str]) -> Path:
    return Path(run(folder, ["rev-parse", "--show-toplevel"], env).stdout.strip())
