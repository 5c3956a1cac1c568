"""Output of the commands that put memcli where agents and machines are: hooks install
and status, sync, and Anthropic's memory tool."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memcli.json_values import JsonObject, to_json
from memcli.render.output import Output

if TYPE_CHECKING:
    from memcli.commands.gitstore.sync import SyncResult
    from memcli.commands.gitstore.teams import TeamSyncResult
    from memcli.commands.hooks_install import HookStatus, InstallResult
    from memcli.commands.memory_tool import ToolResult


def hooks_installed(output: Output, result: InstallResult, *, dry_run: bool) -> None:
    if output.as_json:
        output.data({"agent": result.agent, "path": str(result.path),
                     "added": to_json(result.added), "already": to_json(result.already),
                     "changed": to_json(result.changed), "extractor": result.extractor,
                     "written": result.written, "diff": result.diff,
                     "notes": to_json(list(result.notes))})
    elif dry_run:
        output.out.write(result.diff or f"{result.path}: memcli's hooks are already there\n")
    elif result.written and (result.added or result.changed):
        done = [f"added memcli to {', '.join(result.added)}" if result.added else "",
                f"set the extractor of {', '.join(result.changed)}" if result.changed else ""]
        extractor = f" (extractor: {result.extractor})" if result.extractor else ""
        output.line(f"{result.path}: {'; '.join(d for d in done if d)}{extractor}")
    elif not result.written:
        output.line(f"{result.path}: memcli's hooks are already there, nothing changed")
    if not output.as_json:
        # What the agent needs before it runs them: on stderr, after what was done.
        for note in result.notes:
            output.note(f"memcli: {note}")


def hooks_status(output: Output, rows: Sequence[HookStatus], git_path: Path,
                 wired: Sequence[str], missing: Sequence[str]) -> None:
    if output.as_json:
        output.data({"agents": [{"agent": r.agent, "scope": r.scope, "path": str(r.path),
                                 "exists": r.exists, "wired": to_json(r.wired),
                                 "missing": to_json(r.missing), "extractor": r.extractor,
                                 "extractors": to_json(r.extractors),
                                 "auto": None if r.auto is None else
                                 {"provider": r.auto[0], "reason": r.auto[1]},
                                 "disabled": r.disabled or None}
                                for r in rows],
                     "git": {"path": str(git_path), "wired": to_json(wired),
                             "missing": to_json(missing)}})
        return
    for row in rows:
        output.line(f"{row.agent:<12} {row.scope:<8} {_wired(row)}  ({row.path})")
    git_state = ("merge driver for " + ", ".join(wired)) if wired else "no merge driver"
    output.line(f"{'git':<12} {'project':<8} {git_state}  ({git_path})")


def _wired(row: HookStatus) -> str:
    if not row.wired:
        return "not wired" if row.exists else "no settings file"
    state = ("wired but disabled: " if row.disabled else "wired: ") + ", ".join(row.wired)
    state += "; missing: " + ", ".join(row.missing) if row.missing else ""
    named = set(row.extractors.values())
    if len(named) > 1:
        extractor = ", ".join(f"{event} {chosen or 'the settings’ provider'}"
                              for event, chosen in row.extractors.items())
    else:
        extractor = row.extractor or "the settings’ provider"
    state += f"; extractor: {extractor}"
    if row.auto is not None:
        state += f"; auto now: {row.auto[0]} ({row.auto[1]})"
    return state + (f" ({row.disabled})" if row.disabled else "")


def sync_result(output: Output, result: SyncResult,
                teams: Sequence[TeamSyncResult] = ()) -> None:
    if output.as_json:
        data: JsonObject = {
            "store": str(result.store), "remote": result.remote,
            "committed": result.committed, "pulled": result.pulled,
            "reindexed": result.reindexed, "pushed": result.pushed,
            "conflicts": [{"note": n, "kept_as": c} for n, c in result.conflicts],
            "warnings": list(result.warnings)}
        if teams:
            data["teams"] = [_team_json(team) for team in teams]
        output.data(data)
        return
    done = [("cloned" if result.cloned else ""),
            ("committed local changes" if result.committed else ""),
            (f"took in {result.pulled} commit(s)" if result.pulled else ""),
            ("rebuilt the index" if result.reindexed else ""),
            ("pushed" if result.pushed else "")]
    output.line(f"synced {result.store} with {result.remote}: "
                f"{', '.join(d for d in done if d) or 'nothing to do'}")
    for note, copy in result.conflicts:
        output.line(f"conflict: {note} changed on both sides; the other machine's "
                    f"version is {note}, this machine's is kept as {copy}")
        # What to do about it: merging is the person's call; finishing is two commands.
        output.line(f"  merge: compare `memcli show user/{note}` with `memcli show "
                    f"user/{copy}` and put what you keep into {result.store / note}")
        output.line(f"  finish: memcli rm --yes user/{copy} && memcli sync")
    for warning in result.warnings:
        output.warn(warning)
    _team_lines(output, teams)


def team_sync_results(output: Output, teams: Sequence[TeamSyncResult]) -> None:
    """`memcli sync` with team stores only (the user store is not a git repository)."""
    if output.as_json:
        output.data({"teams": [_team_json(team) for team in teams]})
        return
    _team_lines(output, teams)


def _team_json(team: TeamSyncResult) -> JsonObject:
    return {"name": team.name, "url": team.url, "folder": str(team.folder),
            "cloned": team.cloned, "pulled": team.pulled, "branch": team.branch,
            "error": team.error or None, "warnings": list(team.warnings)}


def _team_lines(output: Output, teams: Sequence[TeamSyncResult]) -> None:
    for team in teams:
        if team.error:
            output.error(f"team store {team.name}: {team.error}")
            continue
        done = "cloned" if team.cloned else (
            f"took in {team.pulled} commit(s)" if team.pulled else "up to date")
        output.line(f"team store {team.name} ({team.branch} of {team.url}): {done}")
        for warning in team.warnings:
            output.warn(warning)


def memory_tool_result(output: Output, result: ToolResult) -> None:
    if output.as_json:
        output.data({"content": result.content, "is_error": result.is_error})
        return
    output.out.write(result.content if result.content.endswith("\n") else result.content + "\n")
