"""`memcli review`: the review inbox, on a terminal one proposal at a time."""

# No `from __future__ import annotations`: typer evaluates string annotations on every run.
import os
import sys
from typing import Annotated, Any

import typer

from memcli.cli._app import JsonOpt, command, finish
from memcli.cli._errors import handled
from memcli.cli._process_state import make_output, resolve_settings


@command(section="review and history", rank=45)
@handled
def review(
    ctx: typer.Context,
    ids: Annotated[list[str] | None, typer.Argument(
        metavar="[ID]...", help="Proposals to accept or reject, as `--list` shows them.")] = None,
    list_them: Annotated[bool, typer.Option("--list", help="List the proposals.")] = False,
    accept: Annotated[bool, typer.Option("--accept", help="Accept the proposals named.")] = False,
    reject: Annotated[bool, typer.Option("--reject", help="Reject the proposals named.")] = False,
    every: Annotated[bool, typer.Option("--all", help="With --accept or --reject: all.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Accept or reject what unattended runs proposed.

    With `review` set (config [hooks] review, MEMCLI_REVIEW: all, or note types), the hook,
    `extract --propose` and MCP clients leave proposals in the inbox instead of writing.
    On a terminal, review steps through them: accept, edit (in $EDITOR), skip, reject.
    An accepted proposal goes through the checks and the one transaction of `memcli apply`.

    \b
    Example:
      memcli review --list
      memcli review --accept 20260102T030405-1a2b3c4d
      memcli review --reject --all
    """
    from memcli.commands import review as core
    from memcli.errors import InputError
    from memcli.render.review import decisions, inbox_list

    settings = resolve_settings(ctx)
    output = make_output(as_json)
    days = settings.expiry_days()
    if accept and reject:
        raise InputError("--accept and --reject cannot go together")
    if accept or reject:
        if not ids and not every:
            raise InputError("name the proposals to decide (IDs from `memcli review --list`) "
                             "or pass --all")
        result = core.decide(settings, None if every else ids, accept=accept, expiry_days=days)
        decisions(output, result)
        finish(result)
    if ids or every:
        raise InputError("IDs and --all go with --accept or --reject")
    if list_them or as_json or not (sys.stdin.isatty() and sys.stdout.isatty()):
        inbox_list(output, core.list_inbox(settings, expiry_days=days))
        return
    _interactive(settings, days)


def _interactive(settings: Any, days: int) -> None:
    """One proposal at a time: [a]ccept, [e]dit, [s]kip, [r]eject, [q]uit."""
    from memcli.commands import review as core
    from memcli.render.review import proposal_text

    inbox = core.list_inbox(settings, expiry_days=days)
    for p in inbox.expired:
        print(f"memcli: proposal {p.id} expired and was taken out of the inbox")
    if not inbox.pending:
        print("memcli: no proposal awaits review")
        return
    total = len(inbox.pending)
    for number, pending in enumerate(inbox.pending, start=1):
        print(f"\n[{number}/{total}] " + proposal_text(pending))
        while True:
            try:
                answer = input("[a]ccept, [e]dit, [s]kip, [r]eject, [q]uit? ").strip().lower()[:1]
            except EOFError:  # Ctrl-D: the rest stays in the inbox
                print()
                return
            if answer in ("a", "r"):
                result = core.decide(settings, [pending.proposal.id], accept=answer == "a",
                                     expiry_days=days)
                for d in result.decisions:
                    print(f"{d.id}: {d.verdict}" + (f" ({d.message})" if d.message else ""))
                break
            if answer == "e":
                edited = _edit(pending.proposal.operations)
                if edited is None:
                    continue
                result = core.decide(settings, [pending.proposal.id], accept=True,
                                     edited={pending.proposal.id: edited}, expiry_days=days)
                for d in result.decisions:
                    print(f"{d.id}: {d.verdict}" + (f" ({d.message})" if d.message else ""))
                break
            if answer == "s":
                print("skipped: it stays in the inbox")
                break
            if answer == "q":
                return


def _edit(operations: list[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The operations as the person left them in $EDITOR; None when unusable (said why)."""
    import json
    import shlex
    import subprocess
    import tempfile

    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    with tempfile.TemporaryDirectory(prefix="memcli-review-") as folder:
        path = os.path.join(folder, "operations.json")
        with open(path, "w", encoding="utf-8") as handle:
            json.dump(operations, handle, ensure_ascii=False, indent=2)
            handle.write("\n")
        status = subprocess.call([*shlex.split(editor), path])
        if status != 0:
            print(f"memcli: the editor exited with status {status}; nothing accepted")
            return None
        try:
            with open(path, encoding="utf-8") as handle:
                edited = json.load(handle)
        except (OSError, ValueError) as exc:
            print(f"memcli: the edited operations are not JSON ({exc}); nothing accepted")
            return None
    if not isinstance(edited, list) or not all(isinstance(o, dict) for o in edited):
        print("memcli: the edited operations must be a JSON list of objects; nothing accepted")
        return None
    return edited
