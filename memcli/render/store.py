"""Output of the store commands: apply, add, rm, show, context and index."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from memcli.json_values import JsonObject, JsonValue, to_json
from memcli.render.output import BOLD, CYAN, Output, diff

if TYPE_CHECKING:
    from memcli.commands.apply import ApplyReport
    from memcli.commands.gitstore.team_apply import TeamApply
    from memcli.commands.lookup import Found, Listing
    from memcli.commands.reindex import IndexResult
    from memcli.store.context_block import ContextBlock
    from memcli.store.index import IndexEntry
    from memcli.writes.plan_result import FileChange, Outcome


# --------------------------------------------------------------------------- apply, add, rm


def apply_report(output: Output, report: ApplyReport) -> None:
    if output.as_json:
        output.data(apply_json(report))
        return
    for outcome in report.outcomes:
        _outcome(output, outcome, report.dry_run)
    for level in report.stale_levels:
        output.warn(f"the {level} store changed since extraction (stale base); "
                    "the operations were checked against it as it is now")
    for warning in report.warnings:
        output.warn(warning)
    if report.dry_run:
        diff(output, report.diff)
        output.note(_summary(report, "dry run, nothing written"))
    else:
        output.note(_summary(report, "written" if report.written else "nothing written"))
    for level, path in report.created.items():
        output.note(f"memcli: created the {level} store at {path}")
    if report.proposed:
        output.note(f"memcli: {len(report.proposed)} proposal"
                    f"{'s wait' if len(report.proposed) != 1 else ' waits'} for review "
                    "(`memcli review`)")
    if report.backup:
        output.note(f"memcli: the notes as they were are kept: `memcli restore {report.backup}` "
                    "puts them back")


def apply_json(report: ApplyReport) -> JsonObject:
    """The JSON of `apply --json` (and of the MCP apply and propose tools)."""
    def with_status(status: str) -> JsonValue:
        return [_outcome_json(o) for o in report.outcomes if o.status == status]

    return {
        "dry_run": report.dry_run,
        "written": report.written,
        "applied": with_status("applied"),
        "unchanged": with_status("unchanged"),
        "rejected": with_status("rejected"),
        "held": with_status("held"),
        "proposed": with_status("proposed"),
        "proposals": list(report.proposed),
        "skipped": [o.position for o in report.outcomes if o.status == "skipped"],
        "files": files_json(report.files),
        "base_stale": to_json(report.stale_levels),
        "warnings": to_json(report.warnings),
        "created_stores": to_json(report.created),
        **({"backup": report.backup} if report.backup else {}),
    }


def files_json(files: Sequence[FileChange]) -> JsonValue:
    return [{"level": f.level, "file": f.filename, "change": f.kind} for f in files]


def _outcome_json(outcome: Outcome) -> JsonObject:
    data: JsonObject = {"position": outcome.position, "action": outcome.action,
                        "level": outcome.level, "file": outcome.filename,
                        "message": outcome.message}
    if outcome.warnings:
        data["warnings"] = to_json(outcome.warnings)
    if outcome.reason:
        data["reason"] = outcome.reason
    return data


def _outcome(output: Output, outcome: Outcome, dry_run: bool) -> None:
    # An item with no action of its own (not an object, no "action") is named by position.
    where = f"#{outcome.position} {outcome.action}".rstrip()
    if outcome.status == "rejected":
        output.error(f"rejected {where}: {outcome.message}")
        return
    if outcome.status == "skipped":
        return
    verb = {"applied": "would " if dry_run else "", "unchanged": "", "held": "",
            "proposed": ""}[outcome.status]
    text = f"{verb}{outcome.message}" if outcome.status == "applied" else outcome.message
    if outcome.reason:
        text += f"  ({outcome.reason})"
    output.line(text)
    for warning in outcome.warnings:
        output.line(f"  note: {warning}")


def _summary(report: ApplyReport, state: str) -> str:
    counts: dict[str, int] = {}
    for outcome in report.outcomes:
        status = "to apply" if report.dry_run and outcome.status == "applied" else outcome.status
        counts[status] = counts.get(status, 0) + 1
    parts = [f"{n} {status}" for status, n in counts.items()] or ["no operations"]
    return f"memcli: {', '.join(parts)}; {len(report.files)} files; {state}"


def removal_targets(output: Output, targets: Sequence[Found]) -> None:
    for target in targets:
        output.note(f"  {target.level}/{target.filename}")


# --------------------------------------------------------------------------- index


def index_results(output: Output, results: Sequence[IndexResult], *, check: bool) -> None:
    if output.as_json:
        output.data([{"level": r.level, "path": str(r.path), "up_to_date": r.up_to_date,
                      "rewritten": r.changed, "broken": to_json(r.broken)} for r in results])
        return
    if not results:
        output.note("memcli: no store exists yet; nothing to index")
    for result in results:
        for problem in result.broken:
            output.warn(f"{problem}; its old index line is kept")
        _index_result(output, result, check)


def _index_result(output: Output, result: IndexResult, check: bool) -> None:
    if result.up_to_date and result.broken and check:
        count = len(result.broken)
        output.error(f"{result.level}: {result.path} cannot be checked while {count} "
                     f"{'note is' if count == 1 else 'notes are'} broken; fix "
                     f"{'it' if count == 1 else 'them'}, then run `memcli index --check`")
    elif result.up_to_date:
        output.note(f"{result.level}: {result.path} is up to date")
    elif check:
        output.error(f"{result.level}: {result.path} is out of date; run `memcli index`")
    else:
        output.note(f"{result.level}: rewrote {result.path}")


# --------------------------------------------------------------------------- context, show


def context_block(output: Output, block: ContextBlock) -> None:
    if output.as_json:
        from memcli.tokens import TOKENIZER, count_tokens

        output.data({"text": block.text, "shown": block.shown, "left_out": block.left_out,
                     "tokens": count_tokens(block.text), "tokenizer": TOKENIZER})
    else:
        output.out.write(block.text)
    for problem in block.problems:
        output.warn(problem)


def listing(output: Output, listing: Listing, *, paths: bool) -> None:
    if paths:
        _store_paths(output, listing)
        return
    if output.as_json:
        output.data_list(_entry_json(e) for e in listing.entries)
    elif output.terminal:
        _note_table(output, listing)
    else:
        from memcli.safety.invisible_chars import safe_line

        # A repository's note chose its title: no escape sequence for the terminal, and no
        # tab or line break to shift the columns a script reads.
        for e in listing.entries:
            output.line("\t".join([e.level, e.type, safe_line(e.title), safe_line(e.summary),
                                   e.filename, e.updated]))
    for problems in listing.broken.values():
        for problem in problems:
            output.warn(problem)
    if not listing.entries and output.terminal:  # a person's, not a script's, first look
        levels = list(listing.paths)
        where, flag = ("", "") if len(levels) != 1 else (f" in the {levels[0]} store",
                                                         f" --level {levels[0]}")
        output.note(f"memcli: no notes{where} yet; add one with: "
                    f"memcli add{flag} \"Run make test before pushing.\"")


def _store_paths(output: Output, listing: Listing) -> None:
    if listing.outside:  # on stderr: the lines a script reads stay as they are
        output.warn(f"the project store {listing.paths['project']} is {listing.outside}")
    if output.as_json:
        output.data(listing.paths)
        return
    for level, path in listing.paths.items():
        output.line(f"{level}\t{path}")


def _entry_json(entry: IndexEntry) -> JsonObject:
    return {"level": entry.level, "type": entry.type, "title": entry.title,
            "summary": entry.summary, "file": entry.filename, "updated": entry.updated}


_TYPE_LABELS = {"correction_feedback": "correction", "user_preference": "preference",
                "project_knowledge": "knowledge", "reference_material": "reference"}
_LABEL_WIDTH = max(len(label) for label in _TYPE_LABELS.values())


def _note_table(output: Output, listing: Listing) -> None:
    """For a person at a terminal: per store, two short lines a note, cut to the width."""
    for level, path in listing.paths.items():
        entries = [e for e in listing.entries if e.level == level]
        if not entries:
            continue
        noun = "note" if len(entries) == 1 else "notes"
        heading = _cut(f"{level} ({len(entries)} {noun}, {path})", output.width)
        output.line(output.paint(heading, BOLD))
        for e in entries:
            _table_row(output, e)


def _table_row(output: Output, e: IndexEntry) -> None:
    from memcli.safety.invisible_chars import safe_line

    label = _TYPE_LABELS.get(e.type, e.type)[:_LABEL_WIDTH].ljust(_LABEL_WIDTH)
    same = e.summary.rstrip(".。 ") == e.title.rstrip(".。 ")
    text = safe_line(f"{e.title} — {e.summary}" if e.summary and not same else e.title)
    room = output.width - _LABEL_WIDTH - 4
    output.line(f"  {output.paint(label, CYAN)}  {_cut(text, room)}")
    # The file name is what a person types to `show` or `rm` it: never cut. The date goes
    # first when both do not fit.
    detail = f"{e.filename}  {e.updated[:10]}".rstrip()
    output.line(" " * (_LABEL_WIDTH + 4) + (detail if len(detail) <= room else e.filename))


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 1)] + "…"


def one_note(output: Output, found: Found) -> None:
    if output.as_json:
        note = found.note
        output.data({"level": found.level, "file": found.filename, "path": str(found.path),
                     "meta": to_json(note.meta) if note else None,
                     "content": note.content if note else None, "problem": found.problem})
        return
    if found.note is None:
        output.warn(found.problem)
        _note_text(output, found.path.read_text("utf-8", "replace"))
        return
    _note_text(output, found.note.raw.decode("utf-8", "replace"))


def _note_text(output: Output, text: str) -> None:
    """A note file as it is; on a terminal, its control and invisible characters written as
    ``<U+XXXX>``: a repository's note must not drive the terminal, nor hide from the reader
    what it tells an agent. Piped, the bytes are the file's."""
    if output.terminal:
        from memcli.safety.invisible_chars import visible

        text = "".join(visible(line.removesuffix("\r")) + "\n"
                       for line in text.removesuffix("\n").split("\n")) if text else ""
    output.out.write(text)


def team_apply(output: Output, result: TeamApply) -> None:
    """`apply --store TEAM`: the apply's report, then the branch and how to push it."""
    proposal = result.proposal
    if output.as_json:
        data = apply_json(result.report)
        data["store"] = result.team
        data["proposal"] = None if proposal is None else {
            "folder": str(proposal.folder), "branch": proposal.branch,
            "commit": proposal.commit, "push": proposal.push}
        output.data(data)
        return
    apply_report(output, result.report)
    if proposal is None:
        if not result.report.dry_run:
            output.note(f"memcli: nothing to propose to {result.team}; its clone is unchanged")
        return
    output.line(f"committed {proposal.commit} on branch {proposal.branch} of the {result.team} "
                f"clone ({proposal.folder}); nothing was pushed")
    output.line(f"to propose it for review: {proposal.push}")
