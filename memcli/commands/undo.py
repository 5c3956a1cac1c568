"""`memcli log` and `memcli undo`: reading the history and reversing a transaction.

An undo is a transaction of its own (with its own record), so an undo can be undone. It
restores the bytes a transaction replaced, file by file, but only where the file is still
as that transaction left it: a note changed since is named and left alone unless forced.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memcli.commands.apply import unified_diff
from memcli.commands.lookup import NameQuery, did_you_mean, find_notes
from memcli.errors import BrokenNoteError, NotFoundError, UsageError
from memcli.settings.config import Settings
from memcli.store.folder import StoreState, head_of
from memcli.store.names import INDEX_NAME, LEVELS, unsafe_name_reason
from memcli.store.notes import parse_note
from memcli.writes.history import FileRecord, Operation, Source, Transaction, transactions
from memcli.writes.opening import locked
from memcli.writes.plan_result import FileChange
from memcli.writes.stores import commit_recorded, levels_for, open_stores
from memcli.writes.transaction import HISTORY_DIR, Change

MIN_ID_PREFIX = 4


@dataclass
class LogResult:
    transactions: list[Transaction]
    note: str | None
    unreadable: list[str]
    files: dict[str, list[FileRecord]] = field(default_factory=dict)  # id -> the note's files

    def diff_for(self, txn: Transaction) -> str:
        """What the transaction did to the note, as a unified diff."""
        return unified_diff([_as_change(f) for f in self.files.get(txn.id, [])])


def _as_change(item: FileRecord) -> FileChange:
    return FileChange(item.level, item.filename, item.before, item.after)


def read_log(settings: Settings, level: str | None, note: str | None = None,
             limit: int | None = None) -> LogResult:
    """The transactions of the chosen stores, newest first; with note, only those touching it.

    A NOTE that no transaction touched and no note of the stores is named is not found: a
    typo, not a note without history.
    """
    levels = levels_for(level, settings)
    stores = {lvl: settings.store_for(lvl) for lvl in levels}
    # Locked like any read: a batch a killed process left is finished (with its record) first.
    with locked([settings.store_for(lvl) for lvl in LEVELS], settings.lock_timeout):
        found, bad = transactions(stores)
    result = LogResult(found, note, bad)
    if note is not None:
        _only_note(result, NameQuery.of(note, stores))
        if not result.transactions:
            _must_be_a_note(settings, levels, note)
    if limit is not None:
        result.transactions = result.transactions[:limit]
    return result


def _must_be_a_note(settings: Settings, levels: tuple[str, ...], name: str) -> None:
    """NotFoundError unless NAME means a note of the stores now (one written by hand has no
    history), with the note the person probably meant."""
    with open_stores(settings, levels, bodies=False) as states:
        if find_notes(states, name):
            return
        close = did_you_mean(states, name)
    hint = f"did you mean '{close}'? " if close else ""
    raise NotFoundError(f"no note or history matches '{name}'; {hint}see `memcli show` for "
                        "the notes and `memcli log` for the history")


def _only_note(result: LogResult, wanted: NameQuery) -> None:
    kept: list[Transaction] = []
    for txn in result.transactions:
        files = [f for f in txn.files if f.filename != INDEX_NAME and _names(f, wanted)]
        if files:
            kept.append(txn)
            result.files[txn.id] = files
    result.transactions = kept


def _names(item: FileRecord, wanted: NameQuery) -> bool:
    """Whether a person naming `wanted` may mean this file: file name, slug or title, then
    or now."""
    if wanted.means(item.level, item.filename, None):
        return True
    for data in (item.before, item.after):
        if data is None:
            continue
        try:
            if wanted.means(item.level, item.filename, parse_note(item.filename, data).title):
                return True
        except BrokenNoteError:
            continue
    return False


# --------------------------------------------------------------------------- undo


@dataclass
class UndoReport:
    target: Transaction
    files: list[FileChange]
    held: list[tuple[str, str, str]]  # level, file, why
    dry_run: bool
    written: bool = False
    command: str = "undo"  # or "restore": an unattended run taken back

    @property
    def needs_attention(self) -> bool:
        return bool(self.held) or not self.files

    @property
    def diff(self) -> str:
        return unified_diff(self.files)


def undo(settings: Settings, txn_id: str | None = None, *, dry_run: bool = False,
         force: bool = False, restoring: bool = False) -> UndoReport:
    """Restore the stores as they were before a transaction (default: the newest one).

    With ``restoring`` (`memcli restore`), only an unattended run's transaction is taken back.
    """
    with open_stores(settings, LEVELS) as stores:
        found, _ = transactions({lvl: settings.store_for(lvl) for lvl in stores})
        if restoring:
            found = [t for t in found if t.unattended]
        target = pick(found, txn_id, restoring)
        files: list[FileChange] = []
        held: list[tuple[str, str, str]] = []
        for record in target.records:
            if record.level in stores:
                files += _reverse(stores[record.level], record.files, force, held)
        report = UndoReport(target, files, held, dry_run,
                            command="restore" if restoring else "undo")
        if files and not dry_run:
            changes = [Change(settings.store_for(f.level), f.filename, f.after) for f in files]
            reason = f"undo of {target.id} ({target.command})"
            operations = [Operation("restore", f.level, f.filename, reason) for f in files
                          if f.filename != INDEX_NAME]
            commit_recorded(settings, changes, Source(report.command, undoes=target.id),
                            operations)
            report.written = True
    return report


def pick(found: list[Transaction], txn_id: str | None, restoring: bool = False) -> Transaction:
    if not found:
        if restoring:
            raise NotFoundError("no unattended run in the history has changed a note")
        raise NotFoundError(f"no transaction in the history ({HISTORY_DIR} is empty or missing)")
    if txn_id is None:
        return found[0]
    wanted = txn_id.strip().lower()
    if len(wanted) < MIN_ID_PREFIX:
        raise UsageError(f"give at least {MIN_ID_PREFIX} characters of a transaction id "
                         "(see `memcli log`)")
    matches = [t for t in found if t.id.startswith(wanted)]
    if not matches:
        if restoring:
            raise NotFoundError(f"no unattended run {txn_id} in the history; `memcli restore "
                                "--list` shows them (`memcli undo` takes back any transaction)")
        raise NotFoundError(f"no transaction {txn_id} in the history; see `memcli log`")
    if len(matches) > 1:
        raise UsageError(f"{txn_id} is the start of several transaction ids: "
                         f"{', '.join(t.id for t in matches)}; give more of it")
    return matches[0]


def _reverse(state: StoreState, records: list[FileRecord], force: bool,
             held: list[tuple[str, str, str]]) -> list[FileChange]:
    """The file changes that put one store's files back as they were before the records."""
    restored: dict[str, bytes | None] = {}
    index: FileRecord | None = None
    for item in records:
        if item.filename == INDEX_NAME:
            index = item
            continue
        unsafe = unsafe_name_reason(item.filename)
        if unsafe is not None:
            # A history record is a file in the store (a repository's, for the project store):
            # it may name anything. What is not a note of this store is never written, even
            # with --force, and is reported as held, never as restored.
            held.append((state.level, item.filename,
                         f"the history record names no note of this store ({unsafe})"))
            continue
        current = _current(state, item.filename)
        why = _why_held(item, current)
        if why and not force:
            held.append((state.level, item.filename, why))
            continue
        if item.before != current:
            restored[item.filename] = item.before
    out = [FileChange(state.level, name, _current(state, name), data)
           for name, data in sorted(restored.items())]
    new_index = _index_after(state, index, restored, exact=not held)
    if new_index != state.index_bytes:
        out.append(FileChange(state.level, INDEX_NAME, state.index_bytes, new_index))
    return out


def _why_held(item: FileRecord, current: bytes | None) -> str | None:
    if not item.matches_after(current):
        return "changed since that transaction"
    if item.redacted:
        return "its history record had a secret redacted, so it cannot be restored exactly"
    return None


def _current(state: StoreState, filename: str) -> bytes | None:
    if filename in state.heads:
        return state.bytes_of(filename)
    path = state.path / filename
    try:
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None
    except OSError:
        return None


def _index_after(state: StoreState, index: FileRecord | None,
                 restored: dict[str, bytes | None], *, exact: bool) -> bytes | None:
    """The index after the undo: the exact old bytes when nothing happened since, else
    regenerated from the notes as the undo leaves them."""
    current = state.index_bytes
    if index is not None and exact and not index.redacted and index.matches_after(current):
        return index.before_from(current)
    if not restored:
        return current
    if index is None and _regenerated(state, {}) != current:
        return current  # the transaction left the index alone, and someone edited it since
    return _regenerated(state, restored)


def _regenerated(state: StoreState, restored: dict[str, bytes | None]) -> bytes:
    heads = dict(state.heads)
    broken = dict(state.broken)
    for name, data in restored.items():
        heads.pop(name, None)
        broken.pop(name, None)
        if data is None:
            continue
        try:
            heads[name] = head_of(state.level, parse_note(name, data))
        except BrokenNoteError as exc:
            broken[name] = str(exc)
    view = state.replace(heads=heads, broken=broken)
    return view.rendered_index().encode()

