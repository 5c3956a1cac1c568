"""Validate a batch against the stores as they are (under the lock) and plan its file changes.

Each operation is checked against a working copy of the stores that already holds the
effect of the operations before it, so a batch may create a note and then update it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from memcli.operations.model import CreateOp, DeleteOp, Parsed, UpdateOp
from memcli.safety.redact import describe, redact
from memcli.safety.unattended import Guard, aimed_at_agent, removes_most
from memcli.store.folder import StoreState
from memcli.store.names import (
    INDEX_NAME,
    MAX_SLUG_BYTES,
    MAX_SLUG_CHARS,
    NO_PROJECT,
    note_filename,
    parse_note_name,
    slugify,
    title_key,
    unsafe_name_reason,
)
from memcli.store.note_bytes import render_new_note, render_updated_note
from memcli.store.notes import Note
from memcli.text import MAX_SUMMARY_CHARS, derive_summary, shorten
from memcli.writes.plan_result import FileChange, OnConflict, Outcome, Plan, Status
from memcli.writes.transaction import Change
from memcli.writes.working_copy import WorkingCopy


class _Rejected(Exception):
    pass


class _Refused(_Rejected):
    """What the guard refuses an unattended run: with review on, it waits in the inbox."""


class Planner:
    def __init__(self, stores: dict[str, StoreState], *, now: str, on_conflict: OnConflict,
                 redact_secrets: bool = True, guard: Guard | None = None,
                 no_project: str = NO_PROJECT) -> None:
        self.work = {level: WorkingCopy(state) for level, state in stores.items()}
        self.now = now
        self.on_conflict = on_conflict
        self.redact_secrets = redact_secrets
        self.guard = guard or Guard()
        self.changed = 0  # existing notes updated or deleted so far
        self.no_project = no_project  # why a project operation is refused here
        self.proposed: dict[str, list[dict[str, Any]]] = {}

    def plan(self, items: Sequence[Parsed], base: dict[str, str], *, strict: bool) -> Plan:
        outcomes = [self._one(item) for item in items]
        # A store that changed since extraction matters only to operations that change it
        # or were refused: a document applied again changed the stores itself the first time.
        changing = any(o.status not in ("unchanged", "skipped") for o in outcomes)
        stale = [lvl for lvl, fp in base.items() if changing
                 and lvl in self.work and self.work[lvl].state.fingerprint != fp]
        warnings = [
            f"{w.state.level} store: {why}; it is left as it is"
            for w in self.work.values() for why in w.state.broken.values()
        ]
        if strict and any(o.status == "rejected" for o in outcomes):
            for outcome in outcomes:
                if outcome.status == "applied":
                    outcome.status = "held"
                    outcome.message = "not written: another operation was rejected (--strict)"
            return Plan(outcomes, [], stale, warnings, [])
        files = self._file_changes()
        changes = [Change(self.work[f.level].state.path, f.filename, f.after) for f in files]
        return Plan(outcomes, files, stale, warnings, changes, self.proposed)

    def _one(self, item: Parsed) -> Outcome:
        raw = item.raw if isinstance(item.raw, dict) else {}
        action = str(raw.get("action", "")) if raw else "?"
        if item.op is None:
            status: Status = "skipped" if item.skipped else "rejected"
            level = raw.get("level") if isinstance(raw.get("level"), str) else None
            filename = raw.get("filename") if isinstance(raw.get("filename"), str) else None
            return Outcome(item.position, action, level, filename, status, item.error or "noop")
        op = item.op
        outcome = Outcome(item.position, op.action, op.level, getattr(op, "filename", None),
                          "applied")
        # The reason is printed in the dry-run and the JSON report: no secret in it either.
        outcome.reason = redact(op.reason)[0] if op.reason else None
        try:
            if op.level not in self.work:
                raise _Rejected(self.no_project if op.level == "project"
                                else f"no {op.level} store")
            if self.guard.reviews(self._type_of(op)):
                raise _Refused("its note type is reviewed")
            if isinstance(op, CreateOp):
                self._create(op, outcome)
            elif isinstance(op, UpdateOp):
                self._update(op, outcome)
            else:
                self._delete(op, outcome)
        except _Refused as exc:
            if not self.guard.review or not isinstance(item.raw, dict):
                outcome.status = "rejected"
                outcome.message = str(exc)
            else:
                outcome.status = "proposed"
                outcome.message = f"waits for review in the inbox ({exc})"
                self.proposed.setdefault(op.level, []).append(dict(item.raw))
        except _Rejected as exc:
            outcome.status = "rejected"
            outcome.message = str(exc)
        return outcome

    def _type_of(self, op: CreateOp | UpdateOp | DeleteOp) -> str | None:
        """The note type a change is to: the operation's, else the existing note's."""
        if isinstance(op, CreateOp) or (isinstance(op, UpdateOp) and op.type is not None):
            return op.type
        parsed = parse_note_name(self.work[op.level].find(op.filename) or op.filename)
        return parsed.type if parsed is not None else None

    def _clean(self, text: str, what: str, outcome: Outcome) -> str:
        if not self.redact_secrets:
            return text
        cleaned, findings = redact(text)
        if findings:
            outcome.warnings.append(f"redacted {describe(findings)} from the {what}")
        return str(cleaned)

    def _create(self, op: CreateOp, outcome: Outcome) -> None:
        work = self.work[op.level]
        # Redact before naming the file: a secret in a title or slug must not become a name.
        title = self._clean(op.title, "title", outcome)
        slug = self._slug(op, title, outcome)
        filename = note_filename(op.type, slug)
        existing = work.find(filename) or self._titled(work, op, title)
        if existing is not None:
            if self._says_already(work, existing, op, title, outcome):
                # The same step run again (apply of the same document, an extraction of the
                # same turn): nothing to change, so no conflict to resolve either.
                outcome.status = "unchanged"
                outcome.filename = existing
                outcome.message = f"{op.level}/{existing} already says this"
                return
            if self.on_conflict == "update":
                update = UpdateOp(level=op.level, filename=existing, content=op.content,
                                  title=title, summary=op.summary, type=op.type,
                                  reason=op.reason)
                self._update(update, outcome)
                if outcome.status != "unchanged":  # else "already says this" is the news
                    outcome.warnings.insert(0, f"{existing} already existed: updated it "
                                               "(--on-conflict)")
                return
            if self.on_conflict == "fail":
                why = "same file name" if work.find(filename) else "same title"
                raise _Rejected(
                    f"duplicate: {existing} already exists in the {op.level} store ({why}); "
                    "update it instead, or pass --on-conflict update|rename"
                )
            filename = self._free_name(work, op.type, slug)
            outcome.warnings.append(f"a note with this name or title existed: created {filename}")
        content = self._clean(op.content, "content", outcome)
        summary = self._summary(op.summary, content, outcome)
        self._may_say(title, summary, content)
        meta = {"type": op.type, "title": title, "summary": summary,
                "created": self.now, "updated": self.now,
                **{k: v for k, v in _dates(op).items() if v != []}}
        work.put(filename, render_new_note(meta, content))
        outcome.filename = filename
        outcome.message = f"create {op.level}/{filename}"

    def _says_already(self, work: WorkingCopy, existing: str, op: CreateOp, title: str,
                      outcome: Outcome) -> bool:
        """Whether the note EXISTING holds what the create would write: its type, title,
        summary, dates, anchors and content (an update with them would change nothing)."""
        if existing in work.broken or existing in work.state.unsafe:
            return False
        note = work.note(existing)
        if note.type != op.type:
            return False
        kept = len(outcome.warnings)  # what redaction says is said again if it goes ahead
        try:
            content = self._clean(op.content, "content", outcome)
            same = UpdateOp(level=op.level, filename=existing, content=op.content, title=title,
                            summary=op.summary, expires=op.expires,
                            review_after=op.review_after, cites=op.cites)
            changes = self._meta_changes(same, note, content, outcome)
        except _Rejected:
            return False
        finally:
            del outcome.warnings[kept:]
        return not changes and content.strip("\n") == note.content

    def _titled(self, work: WorkingCopy, op: CreateOp, title: str) -> str | None:
        """The one note a create's title names. When two or more notes share that title, the
        one of the create's type; when that does not settle it, which one the create meant
        is anyone's guess: updating one would overwrite a note the statement may not be
        about, so only a new name (rename) goes ahead."""
        holders = work.holders(title)
        if len(holders) > 1:
            # The one of them of the create's own type is the one it is about.
            holders = [f for f in holders if work.heads[f].entry.type == op.type] or holders
        if len(holders) > 1 and self.on_conflict != "rename":
            raise _Rejected(
                f"{len(holders)} notes in the {op.level} store have the title {title!r} "
                f"({', '.join(sorted(holders))}); update the one you mean by its file name, "
                "or pass --on-conflict rename to keep them all")
        return holders[0] if holders else None

    def _slug(self, op: CreateOp, title: str, outcome: Outcome) -> str:
        if op.slug is None:
            return slugify(title)
        slug = self._clean(op.slug, "slug", outcome)
        if any(c in slug for c in "/\\\x00") or ".." in slug:
            raise _Rejected(f"slug {slug!r} holds a path separator or '..'")
        return slugify(slug)

    def _free_name(self, work: WorkingCopy, note_type: str, slug: str) -> str:
        number = 2
        while True:
            suffix = f"-{number}"
            # Cut by bytes too: slugify would otherwise cut the suffix off a long slug of
            # 4-byte letters, give back the taken name, and this loop would never end.
            base = slug[: MAX_SLUG_CHARS - len(suffix)]
            while len((base + suffix).encode()) > MAX_SLUG_BYTES:
                base = base[:-1]
            candidate = note_filename(note_type, slugify(base + suffix))
            if work.find(candidate) is None:
                return candidate
            number += 1

    def _summary(self, given: str | None, content: str, outcome: Outcome) -> str:
        if not given:
            return derive_summary(content)
        summary = self._clean(given, "summary", outcome)
        if len(summary) > MAX_SUMMARY_CHARS:
            outcome.warnings.append(f"summary shortened to {MAX_SUMMARY_CHARS} characters")
            summary = shorten(summary)
        return summary

    def _target(self, level: str, filename: str) -> tuple[WorkingCopy, str]:
        unsafe = unsafe_name_reason(filename)
        if unsafe is not None:
            raise _Rejected(unsafe)
        work = self.work[level]
        actual = work.find(filename)
        if actual is None:
            raise _Rejected(f"no note {filename} in the {level} store")
        if actual in work.state.unsafe:
            raise _Rejected(f"{actual} is {work.state.unsafe[actual]}")
        return work, actual

    def _update(self, op: UpdateOp, outcome: Outcome) -> None:
        work, actual = self._target(op.level, op.filename)
        if actual in work.broken:
            raise _Rejected(f"{work.broken[actual]} (fix it by hand before updating)")
        note = work.note(actual)
        content = self._clean(op.content, "content", outcome)
        changes = self._meta_changes(op, note, content, outcome)
        self._may_say(changes.get("title", ""), changes.get("summary", ""), content)
        target = actual
        if op.type is not None and op.type != note.type:
            parsed = parse_note_name(actual)
            slug = parsed.slug if parsed else slugify(note.title)
            target = note_filename(op.type, slug)
            if work.find(target) not in (None, actual):
                raise _Rejected(f"cannot change the type: {target} already exists")
        if not changes and content.strip("\n") == note.content and target == actual:
            outcome.status = "unchanged"
            outcome.filename = actual
            outcome.message = f"{op.level}/{actual} already says this"
            return
        self._may_change(op.level, actual, note.content, content)
        changes["updated"] = self.now
        data = render_updated_note(note, changes, content)
        if target != actual:
            work.remove(actual)
        work.put(target, data)
        outcome.filename = target
        renamed = f" (renamed from {actual})" if target != actual else ""
        outcome.message = f"update {op.level}/{target}{renamed}"

    def _meta_changes(self, op: UpdateOp, note: Note, content: str,
                      outcome: Outcome) -> dict[str, Any]:
        changes: dict[str, Any] = {}
        work = self.work[op.level]
        if op.title is not None:
            title = self._clean(op.title, "title", outcome)
            others = [f for f in work.holders(title) if f != note.filename]
            # A note that already has the title keeps it, even where another has it too.
            if others and title_key(title) != title_key(note.title):
                raise _Rejected(f"the title {title!r} is already used by {others[0]}")
            if title != note.title:
                changes["title"] = title
        summary = note.summary
        if op.summary:
            summary = self._summary(op.summary, content, outcome)
        elif not note.summary or note.summary == derive_summary(note.content):
            # A summary that was derived from the old content follows the new content.
            summary = derive_summary(content)
        if summary != note.summary:
            changes["summary"] = summary
        if op.type is not None and op.type != note.type:
            changes["type"] = op.type
        changes.update((k, v) for k, v in _dates(op).items() if note.meta.get(k) != v)
        return changes

    def _may_say(self, *texts: str) -> None:
        """Refuse, when the guard says so, a note that tells the next agent what no note
        should unreviewed (a model may have copied it from a page the agent read)."""
        if not self.guard.hold_instructions:
            return
        for text in texts:
            why = aimed_at_agent(text)
            if why is not None:
                raise _Refused(f"the note {why}, which a model may have copied from a page "
                                "or a tool result; review it and use `memcli apply`")

    def _may_change(self, level: str, filename: str, old: str, new: str | None) -> None:
        """Refuse what the guard does not allow; count the existing notes changed."""
        guard = self.guard
        if (level, filename) in guard.changed_since:
            raise _Refused(f"{level}/{filename} changed after the turn was read (an edit by "
                           "hand or another process while the model answered): the change "
                           "would write over it; review it and use `memcli apply`")
        if not guard.allow_delete:
            if new is None:
                raise _Refused(f"deleting a note needs {guard.lifted_by}; review it and use "
                               "`memcli rm`")
            if removes_most(old, new):
                raise _Refused(f"this update removes most of {level}/{filename}, which is a "
                               f"delete: it needs {guard.lifted_by}; review it and use "
                               "`memcli apply`")
        if guard.max_changed is not None and self.changed >= guard.max_changed:
            raise _Refused(f"one run changes at most {guard.max_changed} existing notes; "
                            "review the rest and use `memcli apply`")
        self.changed += 1

    def _delete(self, op: DeleteOp, outcome: Outcome) -> None:
        work, actual = self._target(op.level, op.filename)
        self._may_change(op.level, actual, "", None)
        work.remove(actual)
        outcome.filename = actual
        outcome.message = f"delete {op.level}/{actual}"

    def _file_changes(self) -> list[FileChange]:
        files: list[FileChange] = []
        for level, work in self.work.items():
            if not work.written:
                continue
            for filename, after in sorted(work.written.items()):
                before = _bytes_before(work.state, filename)
                if before != after:
                    files.append(FileChange(level, filename, before, after))
            index_after = work.index_text().encode()
            if index_after != work.state.index_bytes:
                files.append(FileChange(level, INDEX_NAME, work.state.index_bytes, index_after))
        return files


def _bytes_before(state: StoreState, filename: str) -> bytes | None:
    if filename in state.heads:
        return state.bytes_of(filename)
    if filename in state.broken:
        try:
            return (state.path / filename).read_bytes()
        except OSError:
            return b""
    return None


def _dates(op: CreateOp | UpdateOp) -> dict[str, Any]:
    """The freshness dates an operation sets (see memcli.store.freshness), and its anchors
    (memcli.store.anchors: an update's list replaces the note's; [] removes it)."""
    found: dict[str, Any] = {k: v for k, v in (("expires", op.expires),
                                               ("review_after", op.review_after)) if v}
    if op.cites is not None:
        found["cites"] = op.cites
    return found
