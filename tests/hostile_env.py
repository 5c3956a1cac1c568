"""Hostile conditions that tests/test_files.py and the files campaign (reliability_files.py)
both set up: a full disk, a process that may grow no file, root without its file access,
a YAML alias bomb. One copy of each, so that the test and the campaign check the same thing.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# Run inside a mount namespace of its own: a 512 KiB tmpfs holds the stores, memcli's home
# and the search cache; it is filled (blocks, then inodes) and the commands run.
_FULL_DISK_SCRIPT = r"""
import json, os, subprocess, sys
disk, env, commands = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k,nr_inodes=256", "tmpfs", disk],
               check=True)
def memcli(*args):
    proc = subprocess.run([sys.executable, "-m", "memcli", *args], env=env, text=True,
                          cwd=os.path.join(disk, "repo"), capture_output=True)
    return {"args": list(args), "status": proc.returncode, "stdout": proc.stdout,
            "stderr": proc.stderr}
os.makedirs(os.path.join(disk, "repo", ".git"))
setup = [memcli("add", "Deploy with make ship"), memcli("add", "--level", "user", "Always uv"),
         memcli("search", "uv")]
try:
    with open(os.path.join(disk, "filler"), "wb", buffering=0) as handle:
        while True:
            handle.write(b"\0" * 4096)
except OSError:
    pass
number = 0
while True:
    try:
        open(os.path.join(disk, f"inode-{number}"), "x").close()
    except OSError:
        break
    number += 1
print(json.dumps({"setup": setup, "runs": [memcli(*args) for args in commands]}))
"""


def unshare_prefix() -> list[str] | None:
    """How to get a mount namespace of our own (root, or an unprivileged user namespace)."""
    if shutil.which("unshare") is None or shutil.which("mount") is None:
        return None
    prefix = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-Urm"]
    probe = subprocess.run([*prefix, "true"], capture_output=True, check=False)
    return prefix if probe.returncode == 0 else None


def run_on_full_disk(prefix: list[str], folder: Path, env: Mapping[str, str],
                     commands: Sequence[Sequence[str]]) -> dict[str, Any]:
    """Add a project and a user note on a fresh tmpfs at FOLDER/disk, fill it, run COMMANDS.

    The result holds "setup" and "runs", each a list of {args, status, stdout, stderr}.
    Raises AssertionError when the namespace or the script itself failed.
    """
    disk = folder / "disk"
    disk.mkdir()
    script = folder / "full_disk.py"
    script.write_text(_FULL_DISK_SCRIPT)
    home = disk / "home"
    full_env = {**env, "HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"),
                "MEMCLI_PROJECT_STORE": str(disk / "repo" / ".memcli" / "memory"),
                "XDG_CACHE_HOME": str(disk / "cache"), "MEMCLI_LOCK_TIMEOUT": "5",
                "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    proc = subprocess.run([*prefix, sys.executable, str(script), str(disk),
                           json.dumps(full_env), json.dumps([list(c) for c in commands])],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, f"the full-disk run failed: {proc.stderr[-300:]}"
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def no_file_growth() -> None:
    """preexec_fn: every write to a regular file fails with EFBIG, as on a full disk."""
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))


_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH, _PR_CAPBSET_DROP = 1, 2, 24


def without_root_file_access() -> None:
    """preexec_fn: as root, give up the capabilities that read any file regardless of mode,
    so that a mode-000 note is as unreadable to the test as to a person."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            os._exit(97)


def alias_bomb() -> str:
    """A note whose frontmatter expands (YAML aliases, nine deep) to 9^9 strings."""
    lines = ["---", "type: project_knowledge", "title: Bomb", "summary: s",
             'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join(["*" + previous] * 9) + "]")
    return "\n".join([*lines, "---", "The body.", ""])
