"""`memcli sync`: the user store as a git repository with a remote, kept in step.

One sync commits what changed here, rebases it onto what the other machines pushed,
rebuilds the index from the notes, and pushes. A note changed on both sides (or created
under the same name on both) is never decided silently: the other machines' version stays
at its name, this machine's is kept beside it as ``<name>-conflict-N.md`` with a
``sync_conflict`` key naming the original, and both are reported. Lint then shows the
pair until the person merges them and deletes the copy. A note deleted on one side and
changed on the other is kept, changed.

The remote is untrusted (anyone who can push to it, or who took it over): what it holds is
checked before anything of it is checked out (regular files only, names a store holds,
sizes a note has; see :mod:`memcli.commands.gitstore.remote`), git reads no attribute it committed
(`$GIT_DIR/info/attributes` outranks every `.gitattributes`), and no file is written
through a link. Both machines use the branch the remote already has.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path

from memcli.commands.gitstore._git import GitError, is_repository, run
from memcli.commands.gitstore.remote import (
    check_pulled,
    check_tree,
    choose_branch,
    write_new,
    write_over,
)
from memcli.commands.gitstore.stale_lock import remove_stale_locks
from memcli.commands.gitstore.wiring import ATTRIBUTE, driver_config
from memcli.errors import UsageError

INDEX = "MEMORY.md"
# memcli's own working files inside a store: a lock, an interrupted batch, a temporary file.
IGNORED = (".memcli.lock", ".memcli-txn-*/", ".*.memcli-tmp")
MAX_PUSH_ATTEMPTS = 3
COMMIT_MESSAGE = "memcli sync"


@dataclass
class SyncResult:
    store: Path
    remote: str
    committed: bool = False
    pulled: int = 0
    pushed: bool = False
    reindexed: bool = False
    cloned: bool = False
    conflicts: list[tuple[str, str]] = field(default_factory=list)  # (note, kept as)
    # What the pulled notes hold that an import would not take as it is (check_pulled).
    warnings: list[str] = field(default_factory=list)

    @property
    def needs_attention(self) -> bool:
        # A sync that kept two versions of a note worked, but asks the person to look.
        return bool(self.conflicts)


@dataclass(frozen=True)
class _Repo:
    folder: Path
    env: Mapping[str, str]
    python: str  # the interpreter that runs memcli, for the merge driver

    def git(self, *args: str, check: bool = True) -> str:
        config = [*_identity(self), *driver_config(self.python)]
        return run(self.folder, [*config, *args], self.env, check=check).stdout

    def ok(self, *args: str) -> bool:
        config = [*_identity(self), *driver_config(self.python)]
        return run(self.folder, [*config, *args], self.env, check=False).returncode == 0


Lock = Callable[[], AbstractContextManager[object]]


def sync(store: Path, env: Mapping[str, str], python: str, *, init_url: str | None = None,
         reindex: Callable[[Path], bool] | None = None, lock: Lock | None = None) -> SyncResult:
    """Sync STORE with its remote; REINDEX rebuilds MEMORY.md from the notes.

    LOCK (the store's lock) is held while git reads and rewrites the notes, so that no
    memcli write lands half-way through a commit or a rebase; it is let go around REINDEX,
    which takes it itself.
    """
    repo = _Repo(store, env, python)
    hold: Lock = lock if lock is not None and store.is_dir() else contextlib.nullcontext
    result = SyncResult(store, init_url or "")
    if init_url is not None:
        _init(repo, init_url, result)
    elif not store.is_dir() or not is_repository(store, env):
        raise UsageError(f"the user store {store} is not a git repository; set it up with "
                         "memcli sync --init URL")
    result.remote = result.remote or repo.git("remote", "get-url", "origin",
                                              check=False).strip()
    if not result.remote:
        raise UsageError(f"the user store {store} has no remote 'origin'; "
                         "add one with memcli sync --init URL")
    with hold():  # under the store's lock, no git of memcli's runs there: a lock is stale
        result.warnings += [f"removed {name}, which a killed git left in {store}"
                            for name in remove_stale_locks(store)]
    _pin_attributes(repo)
    if result.cloned:  # an empty store: the remote's history first, as a clone would
        with hold():
            result.pulled += _integrate(repo, result)
    _wire_ignores(repo)
    _wire_attributes(repo)
    with hold():
        result.committed = _commit_pending(repo, COMMIT_MESSAGE)
    start = repo.git("rev-parse", "--verify", "--quiet", "HEAD", check=False).strip()
    for _ in range(MAX_PUSH_ATTEMPTS):
        with hold():
            result.pulled += _integrate(repo, result)
        if reindex is not None and reindex(store):
            result.reindexed = True
        with hold():
            _commit_pending(repo, f"{COMMIT_MESSAGE}: index rebuilt from the notes")
            if repo.ok("push", "--quiet", "-u", "origin", f"HEAD:{_branch(repo)}"):
                result.pushed = True
                result.warnings += check_pulled(store, _pulled_names(repo, start))
                return result
    raise GitError(f"git push to {result.remote} was refused {MAX_PUSH_ATTEMPTS} times "
                   "(another machine pushing at the same time?); run memcli sync again")


def _init(repo: _Repo, url: str, result: SyncResult) -> None:
    store = repo.folder
    if not store.exists() or (store.is_dir() and not any(store.iterdir())):
        # Not `git clone`: it checks out the remote's HEAD before memcli could look at it
        # (and on a `git init --bare` remote that HEAD may name an empty branch). The
        # remote's notes are fetched, checked and checked out by the first integration.
        store.mkdir(parents=True, exist_ok=True)
        repo.git("init", "--quiet", "--initial-branch=main")
        result.cloned = True
    elif not is_repository(store, repo.env):
        repo.git("init", "--quiet", "--initial-branch=main")
    current = repo.git("remote", "get-url", "origin", check=False).strip()
    if not current:
        repo.git("remote", "add", "origin", url)
    elif current != url and not _remote_branches(repo):
        # Nothing was ever fetched from it (a mistyped URL whose first fetch failed): the
        # store owes it nothing, and a refusal left `--init` with no way to correct it.
        repo.git("remote", "set-url", "origin", url)
    elif current != url:
        raise UsageError(f"the user store already syncs with {current}, not {url}")


def _wire_attributes(repo: _Repo) -> None:
    _ensure_lines(repo.folder / ".gitattributes", [f"{INDEX} {ATTRIBUTE}"])


# What git reads for every path of the store, before any `.gitattributes` (this file has the
# highest precedence): a remote's `* merge=memcli` would send every note through the index
# driver (the local edit silently dropped), `merge=union` would splice two versions, and
# `text`, `eol`, `ident`, `filter` or `working-tree-encoding` would rewrite a note's bytes.
PINNED_ATTRIBUTES = (
    "# Written by memcli sync: attributes a remote commits are not honoured.\n"
    "* merge=text !text !eol !crlf !ident !filter !working-tree-encoding\n"
    f"{INDEX} {ATTRIBUTE}\n"
)


def _pin_attributes(repo: _Repo) -> None:
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir").strip())
    info = git_dir / "info"
    info.mkdir(exist_ok=True)
    write_over(info / "attributes", PINNED_ATTRIBUTES.encode())


def _wire_ignores(repo: _Repo) -> None:
    _ensure_lines(repo.folder / ".gitignore", list(IGNORED))


def _ensure_lines(path: Path, lines: list[str]) -> None:
    if path.is_symlink():
        raise UsageError(f"{path} is a symbolic link; memcli does not write through links")
    existing = path.read_text("utf-8") if path.exists() else ""
    missing = [line for line in lines if line not in existing.splitlines()]
    if missing:
        separator = "" if not existing or existing.endswith("\n") else "\n"
        path.write_text(existing + separator + "".join(f"{line}\n" for line in missing),
                        "utf-8")


def _commit_pending(repo: _Repo, message: str) -> bool:
    if not repo.git("status", "--porcelain", "--untracked-files=all").strip():
        return False
    repo.git("add", "--all")
    repo.git("commit", "--quiet", "--no-verify", "-m", message)
    return True


def _branch(repo: _Repo) -> str:
    name = repo.git("symbolic-ref", "--short", "-q", "HEAD", check=False).strip()
    return name or "main"


def _pulled_names(repo: _Repo, start: str) -> list[str]:
    """The files the sync changed since START (every file, when the store had no commit)."""
    args = ["diff", "--name-only", "-z", start, "HEAD"] if start else ["ls-files", "-z"]
    return [name for name in repo.git(*args, check=False).split("\0") if name]


def _remote_branches(repo: _Repo) -> list[str]:
    refs = repo.git("for-each-ref", "--format=%(refname)", "refs/remotes/origin/")
    prefix = "refs/remotes/origin/"
    return [ref[len(prefix):] for ref in refs.splitlines()
            if ref.startswith(prefix) and ref != prefix + "HEAD"]


def _align_branch(repo: _Repo) -> str:
    """The branch this machine syncs: the one the remote has (see choose_branch), the local
    branch renamed to it. A remote made by `git init --bare` names `master` as its HEAD on
    many machines while the first machine pushed `main`: a clone would sit on an empty
    `master` and push there, and the two machines would never meet."""
    local = _branch(repo)
    unborn = not repo.ok("rev-parse", "--verify", "--quiet", "HEAD")
    head = repo.git("ls-remote", "--symref", "origin", "HEAD", check=False)
    branch = choose_branch(_remote_branches(repo), None if unborn else local, head)
    if branch != local:
        if unborn:
            repo.git("symbolic-ref", "HEAD", f"refs/heads/{branch}")
        else:
            repo.git("branch", "-m", branch)
    return branch


def _integrate(repo: _Repo, result: SyncResult) -> int:
    """Fetch and rebase onto the remote branch; the number of commits taken in."""
    repo.git("fetch", "--quiet", "origin")
    branch = _align_branch(repo)
    remote_ref = f"origin/{branch}"
    if not repo.ok("rev-parse", "--verify", "--quiet", remote_ref):
        return 0
    # Before any of it reaches the folder: a link, a submodule, a file no store holds.
    check_tree(repo.git("ls-tree", "-r", "-z", "--full-tree", "-l", remote_ref), result.remote)
    incoming = int(repo.git("rev-list", "--count", f"HEAD..{remote_ref}", check=False)
                   .strip() or 0) if repo.ok("rev-parse", "--verify", "--quiet", "HEAD") else 0
    if not repo.ok("rev-parse", "--verify", "--quiet", "HEAD"):
        repo.git("reset", "--quiet", "--hard", remote_ref)  # a fresh repository: take theirs
        return int(repo.git("rev-list", "--count", remote_ref).strip() or 0)
    if repo.ok("rebase", "--quiet", remote_ref):
        return incoming
    while True:
        _resolve_conflicts(repo, result)
        if repo.ok("-c", "core.editor=true", "rebase", "--continue"):
            return incoming
        if not _rebasing(repo):
            return incoming


def _rebasing(repo: _Repo) -> bool:
    git_dir = Path(repo.git("rev-parse", "--absolute-git-dir").strip())
    return (git_dir / "rebase-merge").exists() or (git_dir / "rebase-apply").exists()


def _resolve_conflicts(repo: _Repo, result: SyncResult) -> None:
    """Keep both versions of every conflicted note; the index is rebuilt afterwards."""
    names = [n for n in repo.git("diff", "--name-only", "--diff-filter=U", "-z")
             .split("\0") if n]
    for name in names:
        path = repo.folder / name
        # In a rebase, stage 2 is the remote side (being rebased onto), stage 3 this machine's.
        remote = _stage(repo, 2, name)
        local = _stage(repo, 3, name)
        if name == INDEX or name.endswith("/" + INDEX):
            write_over(path, remote or local or b"")
        elif remote is not None and local is not None:
            write_over(path, remote)
            copy = _conflict_name(path)
            write_new(copy, _marked(local, name))
            repo.git("add", "--", copy.name if copy.parent == repo.folder else str(copy))
            result.conflicts.append((name, copy.relative_to(repo.folder).as_posix()))
        elif remote is None and local is None:
            repo.git("rm", "--quiet", "--cached", "--", name, check=False)
            continue
        else:
            write_over(path, remote if remote is not None else local or b"")
        repo.git("add", "--", name)


def _stage(repo: _Repo, number: int, name: str) -> bytes | None:
    done = run(repo.folder, ["show", f":{number}:{name}"], repo.env, check=False)
    if done.returncode != 0:
        return None
    # Text mode decoded it; notes are UTF-8 (lint reports any that are not).
    return done.stdout.encode("utf-8", "surrogateescape")


def _conflict_name(path: Path) -> Path:
    """A name nothing holds: not a file, and not a link either (a dangling one "does not
    exist", and writing to it would write wherever it points)."""
    number = 1
    while os.path.lexists(
            candidate := path.with_name(f"{path.stem}-conflict-{number}{path.suffix}")):
        number += 1
    return candidate


def _marked(data: bytes, original: str) -> bytes:
    """The note with a ``sync_conflict`` key naming the note it conflicts with."""
    from memcli.store.note_bytes import render_updated_note
    from memcli.store.notes import SYNC_CONFLICT, parse_note

    try:
        note = parse_note(Path(original).name, data)
        return render_updated_note(note, {SYNC_CONFLICT: Path(original).name}, None)
    except Exception:  # a note broken on this machine is kept byte for byte
        return data


def _identity(repo: _Repo) -> list[str]:
    """A committer for machines where git has none configured (a fresh user, CI)."""
    done = run(repo.folder, ["config", "user.email"], repo.env, check=False) \
        if repo.folder.is_dir() else None
    if done is not None and done.stdout.strip():
        return []
    return ["-c", "user.name=memcli", "-c", "user.email=memcli@localhost"]
