"""Team stores in git: `memcli sync` clones and updates them, `memcli apply --store NAME`
proposes a change on a branch of the clone (see :mod:`memcli.settings.teams` for the declaration).

A team store's remote is untrusted exactly as a synced user store's is, and the same code
guards it (:mod:`memcli.commands.gitstore.remote`): its tree is checked before any of it is checked
out (regular files at the top level with names a store holds, a note's size at most; no
link, submodule, folder or `.memcli*` name), the attributes it commits are not honoured
(`$GIT_DIR/info/attributes` pins them), and every note taken in is read as an import reads
one, a broken, secret-holding or hiding note named in a warning. Nothing is ever pushed:
a proposal prints the command that pushes it for review.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from memcli.commands.gitstore._git import is_repository, run
from memcli.commands.gitstore.remote import check_pulled, check_tree, choose_branch, write_over
from memcli.errors import InputError, MemcliError, UsageError
from memcli.settings.teams import TeamStore

# memcli's own working files (a lock, an interrupted batch, the history of an apply) stay
# out of a proposal's commit without touching the team's .gitignore.
_EXCLUDED = ".memcli*\n.*.memcli-tmp\n"
# The attributes git applies in the clone, whatever the remote commits.
_PINNED = "* merge=text !text !eol !crlf !ident !filter !working-tree-encoding\n"
_TRACKED = "memcli.branch"  # the clone's config: the remote branch it follows


@dataclass
class TeamSyncResult:
    name: str
    url: str
    folder: Path
    cloned: bool = False
    pulled: int = 0
    branch: str = ""
    error: str = ""  # why this team store was not updated (the others still were)
    warnings: list[str] = field(default_factory=list)


def sync_team(team: TeamStore, env: Mapping[str, str]) -> TeamSyncResult:
    """Clone TEAM, or bring its clone to the remote's branch; refused remotes change nothing.

    The clone's branch is reset to the remote's: nothing is written in it but by `apply
    --store`, which commits on branches of its own (or, for an "rw" store, on this branch;
    those commits are kept until pushed: the update then waits).
    """
    result = TeamSyncResult(team.name, team.url, team.folder)
    try:
        _sync(team, env, result)
    except MemcliError as exc:  # a refused remote, a failed fetch: the other stores go on
        result.error = str(exc)
    return result


def _sync(team: TeamStore, env: Mapping[str, str], result: TeamSyncResult) -> None:
    folder = team.folder
    if folder.is_symlink():
        raise UsageError(f"{folder} is a symbolic link; memcli keeps team clones itself")
    if not folder.is_dir() or not is_repository(folder, env):
        # Not `git clone`: it would check the remote's tree out before it is looked at.
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        _git(folder, env, "init", "--quiet", "--initial-branch=main")
        _git(folder, env, "remote", "add", "origin", team.url)
        result.cloned = True
    elif _git(folder, env, "remote", "get-url", "origin").strip() != team.url:
        _git(folder, env, "remote", "set-url", "origin", team.url)
    git_dir = Path(_git(folder, env, "rev-parse", "--absolute-git-dir").strip())
    (git_dir / "info").mkdir(exist_ok=True)
    write_over(git_dir / "info" / "attributes", _PINNED.encode())
    write_over(git_dir / "info" / "exclude", _EXCLUDED.encode())
    _git(folder, env, "fetch", "--quiet", "--prune", "origin")
    prefix = "refs/remotes/origin/"
    branches = [ref[len(prefix):] for ref in _git(
        folder, env, "for-each-ref", "--format=%(refname)", prefix).splitlines()
        if ref != prefix + "HEAD"]
    if not branches:
        raise UsageError(f"the team store {team.name} ({team.url}) has no commits yet")
    head = _git(folder, env, "ls-remote", "--symref", "origin", "HEAD", check=False)
    branch = choose_branch(branches, None, head)
    result.branch = branch
    remote_ref = f"origin/{branch}"
    # Before any of it reaches the folder.
    check_tree(_git(folder, env, "ls-tree", "-r", "-z", "--full-tree", "-l", remote_ref),
               team.url)
    start = _git(folder, env, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}",
                 check=False).strip()
    if start and _git(folder, env, "rev-list", "--count", f"{remote_ref}..{branch}").strip() \
            not in ("", "0"):
        raise UsageError(f"the clone of {team.name} has commits on {branch} that the remote "
                         f"lacks; push them ({push_command(team, branch)}) or drop them, "
                         "then sync again")
    result.pulled = int(_git(folder, env, "rev-list", "--count",
                             f"{start}..{remote_ref}" if start else remote_ref).strip() or 0)
    _git(folder, env, "checkout", "--quiet", "--force", "-B", branch, remote_ref)
    _git(folder, env, "clean", "--quiet", "-d", "--force")
    _git(folder, env, "config", _TRACKED, branch)
    names = _git(folder, env, "diff", "--name-only", "-z", start, "HEAD").split("\0") \
        if start else _git(folder, env, "ls-files", "-z").split("\0")
    result.warnings = [f"{team.name}: {w}" for w in check_pulled(folder, [n for n in names if n])]


@dataclass
class Proposal:
    """A change to a team store, committed in its clone and not pushed."""

    team: str
    folder: Path
    branch: str
    commit: str
    push: str  # the command that pushes it for review


def propose(team: TeamStore, env: Mapping[str, str], stamp: str,
            apply: Callable[[], bool]) -> Proposal | None:
    """Run APPLY (which writes the change into the clone; True when it wrote anything) on a
    new branch of the clone (on the followed branch for an "rw" store), and commit it.
    None, and the clone as it was, when nothing was written."""
    folder = team.folder
    if not folder.is_dir() or not is_repository(folder, env):
        raise UsageError(f"the team store {team.name} has no clone yet; run memcli sync")
    if _git(folder, env, "status", "--porcelain", "--untracked-files=all").strip():
        raise UsageError(f"the clone of {team.name} ({folder}) has uncommitted changes; "
                         "commit or discard them first")
    followed = _git(folder, env, "config", "--get", _TRACKED, check=False).strip() or "main"
    start = _git(folder, env, "rev-parse", "--abbrev-ref", "HEAD").strip()
    branch = followed if not team.read_only else f"memcli/proposal-{stamp}"
    if team.read_only:
        _git(folder, env, "checkout", "--quiet", "-b", branch, followed)
    elif start != followed:
        _git(folder, env, "checkout", "--quiet", followed)
    try:
        wrote = apply()
    except BaseException:
        _restore(folder, env, start, branch if team.read_only else None)
        raise
    if not wrote or not _git(folder, env, "status", "--porcelain").strip():
        _restore(folder, env, start, branch if team.read_only else None)
        return None
    _git(folder, env, "add", "--all")
    _git(folder, env, *_identity(folder, env), "commit", "--quiet", "--no-verify", "-m",
         f"memcli: proposed change to {team.name}")
    commit = _git(folder, env, "rev-parse", "--short", "HEAD").strip()
    return Proposal(team.name, folder, branch, commit, push_command(team, branch))


def _restore(folder: Path, env: Mapping[str, str], start: str, made: str | None) -> None:
    """The clone as it was before a proposal that wrote nothing (or failed)."""
    _git(folder, env, "reset", "--quiet", "--hard", check=False)
    _git(folder, env, "clean", "--quiet", "-d", "--force", check=False)
    _git(folder, env, "checkout", "--quiet", start if start != "HEAD" else "-", check=False)
    if made is not None:
        _git(folder, env, "branch", "--quiet", "-D", made, check=False)


def push_command(team: TeamStore, branch: str) -> str:
    import shlex

    return f"git -C {shlex.quote(str(team.folder))} push origin {shlex.quote(branch)}"


def _identity(folder: Path, env: Mapping[str, str]) -> list[str]:
    if _git(folder, env, "config", "user.email", check=False).strip():
        return []
    return ["-c", "user.name=memcli", "-c", "user.email=memcli@localhost"]


def _git(folder: Path, env: Mapping[str, str], *args: str, check: bool = True) -> str:
    return run(folder, args, env, check=check).stdout


def require_team(teams: tuple[TeamStore, ...], name: str) -> TeamStore:
    from memcli.settings.teams import find_team

    team = find_team(teams, name)
    if team is None:
        known = ", ".join(t.name for t in teams) or "none is declared"
        raise InputError(f"no team store named '{name}' ({known}); declare it in the user "
                         "config as [teams.NAME] with url = \"...\"")
    return team
