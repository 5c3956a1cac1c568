"""What `memcli sync` takes from a remote it does not trust: its tree checked before any of
it is checked out, its branch, and writes that never go through a link.

Anyone who can push to the remote (or who took it over) chooses what a sync pulls. A
symbolic link at a name sync later writes (a conflict copy's) carried the local note out of
the store; a `.memcli-txn-*` folder would hand memcli's crash recovery a batch to replay;
a submodule or a folder is nothing a store holds. Git itself writes a link as a link, so
the check runs on the tree, before the rebase or reset that checks it out.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from memcli.errors import MemcliError
from memcli.store.names import INDEX_NAME, unsafe_name_reason

# Git's modes for a plain file; 120000 is a symbolic link, 160000 a submodule.
REGULAR_MODES = frozenset({"100644", "100755"})
# As an import reads another tool's memory file: a larger one is not a note.
MAX_FILE_BYTES = 16 * 1024 * 1024
# Files of the store's own repository besides the notes and the index.
REPOSITORY_FILES = frozenset({".gitattributes", ".gitignore"})


class RemoteRefused(MemcliError):
    """The remote holds something a store never does; nothing of it was taken in."""


def check_tree(listing: str, remote: str) -> None:
    """Refuse a remote tree (`git ls-tree -r -z -l` of it) that holds anything but regular
    files at the top level with names a store may hold, each of a note's size at most."""
    problems: list[str] = []
    for entry in filter(None, listing.split("\0")):
        meta, _, name = entry.partition("\t")
        mode, _, rest = meta.partition(" ")
        size = rest.split()[-1] if rest.split() else "-"
        why = _refused(mode, size, name)
        if why is not None:
            shown = name.encode("unicode_escape").decode("ascii")
            problems.append(f"{shown} ({why})")
    if problems:
        more = f" and {len(problems) - 3} more" if len(problems) > 3 else ""
        raise RemoteRefused(
            f"the remote {remote} holds what a memory store never does: "
            f"{'; '.join(problems[:3])}{more}; memcli took nothing from it (remove them "
            "from the remote, then run memcli sync again)")


def _refused(mode: str, size: str, name: str) -> str | None:
    if mode == "120000":
        return "a symbolic link"
    if mode == "160000":
        return "a submodule"
    if mode not in REGULAR_MODES:
        return f"not a regular file (mode {mode})"
    if "/" in name:
        return "a file in a folder; a store is one folder of notes"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") for c in name):
        return "control or invisible characters in its name"
    if name.startswith(".memcli") or (name.casefold().startswith(".git")
                                      and name not in REPOSITORY_FILES):
        return "a name memcli or git keeps for itself"
    if size.isdigit() and int(size) > MAX_FILE_BYTES:
        return f"larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB"
    if name.endswith(".md") and name != INDEX_NAME and not name.startswith("."):
        reason = unsafe_name_reason(name)
        if reason is not None and "not a note name" not in reason:
            return reason
    return None


def check_pulled(store: Path, names: Sequence[str]) -> list[str]:
    """What the notes a sync took in hold that an import would not let through as it is,
    one warning each: a broken note, a secret, text a renderer hides. The notes stay as the
    other machine wrote them (rewriting them would churn every machine's history); lint
    reports them, and `context` and recall redact secrets."""
    from memcli.errors import BrokenNoteError
    from memcli.paths import read_regular_file
    from memcli.safety.hidden_markup import find_hidden, might_hide
    from memcli.safety.redact import find_secrets
    from memcli.store.names import is_note_name
    from memcli.store.notes import parse_note

    warnings: list[str] = []
    for name in names:
        if not is_note_name(name) or not os.path.lexists(store / name):
            continue
        try:
            note = parse_note(name, read_regular_file(store / name, MAX_FILE_BYTES))
        except (BrokenNoteError, OSError) as exc:
            warnings.append(f"pulled {name}, which is not a note memcli reads ({exc})")
            continue
        text = "\n".join((note.title, note.summary, note.body))
        if found := find_secrets(text):
            warnings.append(f"pulled {name}, which holds what looks like a secret "
                            f"({found[0].kind}); context and recall redact it; remove it")
        if might_hide(text) and find_hidden(text):
            warnings.append(f"pulled {name}, which holds text a Markdown view hides "
                            "(memcli lint M216 shows it)")
    return warnings


def choose_branch(remote_branches: Sequence[str], local: str | None, symref: str) -> str:
    """The one branch every machine syncs, decided by what the remote has, never by this
    machine alone: the branch the remote's HEAD names (SYMREF, `git ls-remote --symref
    origin HEAD`) when it exists, else main, else master, else its only branch. An empty
    remote takes this machine's branch (LOCAL; main when it has none yet)."""
    if not remote_branches:
        return local or "main"
    head = _head_target(symref)
    for name in (head, "main", "master"):
        if name is not None and name in remote_branches:
            return name
    if len(remote_branches) == 1:
        return remote_branches[0]
    raise RemoteRefused(f"the remote has the branches {', '.join(sorted(remote_branches))}, "
                        "none of them main, master or its HEAD; memcli does not guess which "
                        "one holds the notes (delete the others, or point the remote's HEAD "
                        "at it)")


def _head_target(symref: str) -> str | None:
    for line in symref.splitlines():
        target, _, name = line.partition("\t")
        if name == "HEAD" and target.startswith("ref: refs/heads/"):
            return target.removeprefix("ref: refs/heads/")
    return None


def write_over(path: Path, data: bytes) -> None:
    """PATH's new bytes, by a fresh file renamed into place: a link there is replaced, never
    written through. Private, as the user store is."""
    from memcli.durable import replace_file

    replace_file(path, data, 0o600)


def write_new(path: Path, data: bytes) -> None:
    """A file made at PATH, which nothing may hold (not even a dangling link)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)
