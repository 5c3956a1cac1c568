"""What each command does. Functions here return values and never print."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memcli.config import Settings
from memcli.errors import ConfigError, InputError, MemcliError, NotFoundError
from memcli.index import ContextBlock, IndexEntry, build_context
from memcli.names import (
    INDEX_NAME,
    LEVELS,
    NO_PROJECT,
    name_key,
    parse_note_name,
    title_key,
)
from memcli.notes import Note
from memcli.paths import resolved
from memcli.store import StoreState, load_store
from memcli.transaction import commit, locked

if TYPE_CHECKING:
    from memcli.guard import Guard
    from memcli.history import Source
    from memcli.plan import OnConflict
    from memcli.transaction import Change

# --------------------------------------------------------------------------- stores


def levels_for(level: str | None, settings: Settings | None = None) -> tuple[str, ...]:
    """The stores a --level value means; without a project here, `all` means the user store."""
    if level not in (None, "all", *LEVELS):
        raise InputError(f"unknown level '{level}'; use project, user or all")
    if settings is not None and no_project(settings):
        if level == "project":
            raise ConfigError(f"{NO_PROJECT}, or use --level user")
        return ("user",)
    return LEVELS if level in (None, "all") else (level,)


def no_project(settings: Settings) -> bool:
    """True in the home folder, where the discovered project store is the user's own.

    A project store that a person set to the user store's folder is a mistake, not "no
    project": that is refused, since each level would rewrite the other's MEMORY.md.
    """
    if resolved(settings.project_store) != resolved(settings.user_store):
        return False
    chosen = settings.sources.get("project_store")
    if chosen is not None and chosen.source != "default":
        raise ConfigError(
            f"the project store and the user store are the same folder "
            f"({settings.user_store}, from {chosen.source}); point --project-store or "
            "--user-store somewhere else"
        )
    return True


@contextmanager
def open_stores(settings: Settings, levels: Sequence[str], create: Sequence[str] = (), *,
                bodies: bool = True) -> Iterator[dict[str, StoreState]]:
    """Lock the stores (fixed order), finish any interrupted batch, and read them (without
    BODIES, only what the index needs of each note is kept).

    Without a project here only the user store is opened: two levels in one folder would
    each rewrite the other's MEMORY.md.
    """
    if no_project(settings):
        levels = [lvl for lvl in levels if lvl == "user"]
        create = [lvl for lvl in create if lvl == "user"]
    # Both stores are locked even when one is read: recovering a two-store batch needs both,
    # and taking them together keeps the one global lock order.
    paths = list(dict.fromkeys(settings.store_for(lvl) for lvl in LEVELS))
    creating = [settings.store_for(lvl) for lvl in create]
    with locked(paths, settings.lock_timeout, creating):
        yield {lvl: load_store(lvl, settings.store_for(lvl), bodies=bodies)
               for lvl in levels}


def timestamp(settings: Settings) -> str:
    return settings.timestamp()


def commit_recorded(settings: Settings, changes: Sequence[Change], source: Source,
                    operations: Sequence[Any] = ()) -> str | None:
    """Commit changes together with their history records (one transaction); its id."""
    from memcli.history import journal, new_transaction_id

    if not changes:
        return None
    stores = [(lvl, settings.store_for(lvl)) for lvl in LEVELS]
    txn_id = new_transaction_id()
    records = journal(changes, stores, source=source, now=timestamp(settings),
                      operations=operations, txn_id=txn_id)
    commit([*changes, *records])
    return txn_id


def applied_operations(outcomes: Sequence[Any]) -> list[Any]:
    from memcli.history import Operation

    return [Operation(o.action, o.level, o.filename, o.reason, o.message)
            for o in outcomes if o.status == "applied"]


# --------------------------------------------------------------------------- apply


@dataclass
class ApplyReport:
    outcomes: list[Any]
    files: list[Any]
    stale_levels: list[str]
    warnings: list[str]
    dry_run: bool
    written: bool
    diff: str = ""
    created: dict[str, Path] = field(default_factory=dict)  # stores this apply made
    # Unattended runs that changed an existing note: the transaction `memcli restore` takes
    # back (its history record holds the notes as they were).
    backup: str | None = None

    @property
    def rejected(self) -> int:
        return sum(1 for o in self.outcomes if o.status == "rejected")

    @property
    def exit_code(self) -> int:
        return 1 if self.rejected else 0

    def as_json(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "written": self.written,
            "applied": [_outcome_json(o) for o in self.outcomes if o.status == "applied"],
            "unchanged": [_outcome_json(o) for o in self.outcomes if o.status == "unchanged"],
            "rejected": [_outcome_json(o) for o in self.outcomes if o.status == "rejected"],
            "held": [_outcome_json(o) for o in self.outcomes if o.status == "held"],
            "skipped": [o.position for o in self.outcomes if o.status == "skipped"],
            "files": [{"level": f.level, "file": f.filename, "change": f.kind}
                      for f in self.files],
            "base_stale": self.stale_levels,
            "warnings": self.warnings,
            "created_stores": {level: str(path) for level, path in self.created.items()},
            **({"backup": self.backup} if self.backup else {}),
        }


def _outcome_json(outcome: Any) -> dict[str, Any]:
    data = {"position": outcome.position, "action": outcome.action, "level": outcome.level,
            "file": outcome.filename, "message": outcome.message}
    if outcome.warnings:
        data["warnings"] = outcome.warnings
    if outcome.reason:
        data["reason"] = outcome.reason
    return data


def apply_text(settings: Settings, text: str, *, dry_run: bool = False, strict: bool = False,
               on_conflict: str = "fail", source: Source | None = None,
               allow_delete: bool = False) -> ApplyReport:
    from memcli.guard import Guard
    from memcli.operations import parse_document

    document = parse_document(text)
    # What `memcli consolidate` proposes deletes only when the person says so.
    guard = Guard(allow_delete=False) if document.consolidation and not allow_delete else None
    return apply_items(settings, document.items, document.base, dry_run=dry_run, strict=strict,
                       on_conflict=on_conflict, source=source, guard=guard)


def apply_items(settings: Settings, items: Sequence[Any], base: dict[str, str], *,
                dry_run: bool = False, strict: bool = False,
                on_conflict: str = "fail", guard: Guard | None = None,
                source: Source | None = None, own: bool = False) -> ApplyReport:
    """Validate the items (``own``: memcli made them, see operations.validate_item), plan
    them against the locked stores and commit them with their history record."""
    from memcli.history import Source
    from memcli.operations import validate_item
    from memcli.plan import Planner

    parsed = [validate_item(i, raw, own=own) for i, raw in enumerate(items, start=1)]
    creating = sorted({p.op.level for p in parsed
                       if p.op is not None and p.op.action == "create" and not dry_run})
    missing = {lvl: settings.store_for(lvl) for lvl in creating
               if not settings.store_for(lvl).exists()}
    with open_stores(settings, LEVELS, create=creating) as stores:
        planner = Planner(stores, now=timestamp(settings), on_conflict=conflict_policy(on_conflict),
                          guard=guard)
        plan = planner.plan(parsed, base, strict=strict)
        written = False
        backup = None
        if not dry_run and plan.changes:
            source = source or Source("apply")
            if guard is not None and guard.unattended:
                source = replace(source, unattended=True)
            txn_id = commit_recorded(settings, plan.changes, source,
                                     applied_operations(plan.outcomes))
            if source.unattended and any(f.before is not None and f.filename != INDEX_NAME
                                         for f in plan.files):
                backup = txn_id
            written = True
    report = ApplyReport(plan.outcomes, plan.files, plan.stale_levels, plan.warnings,
                         dry_run, written, backup=backup)
    report.created = {lvl: path for lvl, path in missing.items() if written and path.is_dir()}
    if dry_run:
        report.diff = unified_diff(plan.files)
    return report


def conflict_policy(value: str) -> OnConflict:
    if value == "fail":
        return "fail"
    if value == "update":
        return "update"
    if value == "rename":
        return "rename"
    raise InputError(f"unknown --on-conflict '{value}'; use fail, update or rename")


def unified_diff(files: Sequence[Any]) -> str:
    import difflib

    chunks: list[str] = []
    for change in files:
        before = _lines(change.before)
        after = _lines(change.after)
        old = f"a/{change.level}/{change.filename}" if change.before is not None else "/dev/null"
        new = f"b/{change.level}/{change.filename}" if change.after is not None else "/dev/null"
        chunks.extend(difflib.unified_diff(before, after, old, new))
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in chunks)


def _lines(data: bytes | None) -> list[str]:
    if data is None:
        return []
    return data.decode("utf-8", "replace").splitlines(keepends=True)


# --------------------------------------------------------------------------- index


@dataclass
class IndexResult:
    level: str
    path: Path
    up_to_date: bool
    changed: bool
    broken: list[str] = field(default_factory=list)


def rebuild_index(settings: Settings, level: str | None, *, check: bool) -> list[IndexResult]:
    from memcli.history import Source
    from memcli.transaction import Change

    levels = levels_for(level, settings)
    results: list[IndexResult] = []
    with open_stores(settings, levels, bodies=False) as stores:
        changes: list[Change] = []
        for lvl, state in stores.items():
            if not state.exists:
                continue
            rendered = state.rendered_index().encode()
            # A store with nothing in it needs no index: that is what a batch killed right
            # after creating the store folder leaves, and it reads exactly like no store.
            empty = state.index_bytes is None and not (state.heads or state.broken
                                                       or state.unsafe)
            fresh = empty or rendered == state.index_bytes
            results.append(IndexResult(lvl, state.path / INDEX_NAME, fresh,
                                       not fresh and not check, sorted(state.broken.values())))
            if not fresh and not check:
                changes.append(Change(state.path, INDEX_NAME, rendered))
        commit_recorded(settings, changes, Source("index"))
    return results


# --------------------------------------------------------------------------- context, show


def context(settings: Settings, budget: int | None = None) -> ContextBlock:
    """The memory block for a system prompt; BUDGET caps its (estimated) tokens."""
    with open_stores(settings, LEVELS, bodies=False) as stores:
        project, user, expired = fresh_entries(stores, settings.moment())
    where = _relative_where(settings)
    user_where = _home_relative(settings.user_store, settings.home)
    block = context_of(settings, project, user, expired, budget)
    from memcli.redact import find_secrets

    # The block goes into an agent's prompt: a secret a person typed into a note by hand
    # (writes through memcli redact it) stays out. One scan of the block is the common path;
    # the entries are redacted one by one only when it finds something, and the block is
    # rebuilt so that the budget counts what is shown.
    if not find_secrets(block.text):
        return block
    return build_context(_redacted(project), _redacted(user), project_where=where,
                         user_where=user_where, max_tokens=budget, expired=expired)


def context_of(settings: Settings, project: Sequence[IndexEntry], user: Sequence[IndexEntry],
               expired: int, budget: int | None = None) -> ContextBlock:
    """The context block of these entries, as `memcli context` prints it (before redaction)."""
    return build_context(project, user, project_where=_relative_where(settings),
                         user_where=_home_relative(settings.user_store, settings.home),
                         max_tokens=budget, expired=expired)


def fresh_entries(stores: dict[str, StoreState], now: datetime
                   ) -> tuple[list[IndexEntry], list[IndexEntry], int]:
    """Each level's index entries without the expired notes, and how many those were."""
    kept: dict[str, list[IndexEntry]] = {}
    expired = 0
    for level in LEVELS:
        state = stores.get(level)
        if state is None:
            kept[level] = []
            continue
        gone = state.expired(now)
        expired += len(gone)
        kept[level] = [e for e in state.entries() if e.filename not in gone]
    return kept["project"], kept["user"], expired


def _redacted(entries: Sequence[IndexEntry]) -> list[IndexEntry]:
    from memcli.redact import redact

    return [replace(e, title=redact(e.title)[0], summary=redact(e.summary)[0])
            for e in entries]


def _home_relative(path: Path, home: Path | None) -> str:
    """~/… for paths in the home folder: shorter in a prompt, and no user name in it."""
    if home is None or not path.is_relative_to(home):
        return str(path)
    return "~/" + str(path.relative_to(home))


def _relative_where(settings: Settings) -> str:
    try:
        return str(settings.project_store.relative_to(settings.project_root))
    except ValueError:
        return str(settings.project_store)


@dataclass
class Listing:
    entries: list[IndexEntry]
    paths: dict[str, Path]
    broken: dict[str, list[str]]


def list_entries(settings: Settings, level: str | None) -> Listing:
    levels = levels_for(level, settings)
    with open_stores(settings, levels, bodies=False) as stores:
        entries = [e for lvl in levels for e in stores[lvl].entries()]
        broken = {lvl: sorted(stores[lvl].broken.values()) for lvl in levels}
    from memcli.index import ordered

    ordered_entries = [e for lvl in levels for e in ordered(x for x in entries if x.level == lvl)]
    return Listing(ordered_entries, {lvl: settings.store_for(lvl) for lvl in levels}, broken)


@dataclass
class Found:
    level: str
    filename: str
    note: Note | None  # None when the note is broken
    path: Path
    problem: str = ""


def find_notes(stores: dict[str, StoreState], name: str) -> list[Found]:
    """Notes a person may mean by NAME.

    What memcli prints (`project/NAME.md`), a path to the note, its file name with or
    without `.md`, its slug, or its title (any case).
    """
    level_hint, bare = _split_reference(stores, name)
    key = name_key(bare)
    stem_key = name_key(bare + ".md")
    wanted_titles = {title_key(name), title_key(name.rstrip(".。!！ "))}
    found: list[Found] = []
    for level, state in stores.items():
        if level_hint is not None and level != level_hint:
            continue
        for filename in (*state.heads, *state.broken):
            head = state.heads.get(filename)
            parsed = parse_note_name(filename)
            title = head.title if head is not None else _title_of_broken(state.path / filename)
            if (name_key(filename) in (key, stem_key)
                    or (parsed is not None and name_key(parsed.slug) == key)
                    or (title is not None and title_key(title) in wanted_titles)):
                note = state.notes[filename] if head is not None else None
                found.append(Found(level, filename, note, state.path / filename,
                                   state.broken.get(filename, "")))
    return found


def _title_of_broken(path: Path) -> str | None:
    """The `title:` line of a note whose frontmatter does not parse, so that `show TITLE`
    finds the note that `show` lists, and says what is broken."""
    try:
        with path.open("rb") as handle:
            head = handle.read(8192).decode("utf-8", "replace")
    except OSError:
        return None
    for line in head.splitlines()[1:40]:
        if line.strip() == "---":
            break
        if line.startswith("title:"):
            return line[len("title:"):].strip().strip("'\"") or None
    return None


def _split_reference(stores: dict[str, StoreState], name: str) -> tuple[str | None, str]:
    """`project/x.md` → ("project", "x.md"); a path into a store → its level and file name."""
    head, sep, tail = name.replace("\\", "/").rpartition("/")
    if not sep or not tail:
        return None, name
    if head in stores:
        return head, tail
    folder = resolved(Path(head))
    for level, state in stores.items():
        if resolved(state.path) == folder:
            return level, tail
    return None, tail



def show_note(settings: Settings, name: str, level: str | None) -> Found:
    with open_stores(settings, levels_for(level, settings)) as stores:
        found = find_notes(stores, name)
    return _exactly_one(name, found)


def _exactly_one(name: str, found: list[Found]) -> Found:
    if not found:
        raise NotFoundError(f"no note matches '{name}'; see `memcli show` for the list")
    if len(found) > 1:
        raise AmbiguousName(name, found)
    return found[0]


class AmbiguousName(MemcliError):

    def __init__(self, name: str, found: list[Found]) -> None:
        listing = ", ".join(f"{f.level}/{f.filename}" for f in found)
        super().__init__(f"'{name}' matches several notes: {listing}; name one by file name "
                         "or pass --level")
        self.candidates = found


# --------------------------------------------------------------------------- rm, add


def resolve_removal(settings: Settings, names: Sequence[str], level: str | None) -> list[Found]:
    """Every note the names mean; nothing is removed when any name is unknown or ambiguous."""
    with open_stores(settings, levels_for(level, settings)) as stores:
        targets = [_exactly_one(name, find_notes(stores, name)) for name in names]
    unique = {(t.level, t.filename): t for t in targets}
    return list(unique.values())


def remove(settings: Settings, targets: Sequence[Found], *, dry_run: bool) -> ApplyReport:
    from memcli.history import Source

    items = [{"action": "delete", "level": t.level, "filename": t.filename} for t in targets]
    return apply_items(settings, items, {}, dry_run=dry_run, strict=True, source=Source("rm"))


# A note type's usual store, when `add` is told the type but not the level.
USUAL_LEVEL = {"user_preference": "user"}
MAX_INDEX_LINE = 200


def add_target(level: str | None, note_type: str | None) -> tuple[str, str]:
    """Level and type of a note added by hand: each defaults to agree with the other."""
    from memcli.names import NOTE_TYPES, canonical_type

    if level is not None and level not in LEVELS:
        raise InputError(f"unknown level '{level}'; use project or user")
    if note_type is None:
        chosen = level or "project"
        return chosen, "user_preference" if chosen == "user" else "project_knowledge"
    canonical = canonical_type(note_type)
    if canonical is None:
        raise InputError(f"unknown type '{note_type}'; use {', '.join(NOTE_TYPES)}")
    return level or USUAL_LEVEL.get(canonical, "project"), canonical


def add(settings: Settings, *, level: str | None, note_type: str | None, text: str,
        title: str | None, summary: str | None, on_conflict: str = "fail",
        dry_run: bool = False, expires: str | None = None) -> ApplyReport:
    from memcli.freshness import parse_when
    from memcli.history import Source
    from memcli.redact import redact
    from memcli.text import derive_summary, shorten

    if not text.strip():
        raise InputError("the memory text is empty; pass TEXT or pipe it with '-'")
    if expires is not None and parse_when(expires) is None:
        raise InputError(f"--expires {expires!r} is not a date; use YYYY-MM-DD")
    level, note_type = add_target(level, note_type)
    if level == "project" and no_project(settings):
        raise ConfigError(f"{NO_PROJECT}, or add it with --level user")
    first_sentence = derive_summary(redact(text)[0])
    # The title is cut from the text: cut first, a token would lose the length that makes
    # it recognisable and slip past the redaction of the title.
    chosen_title = title or shorten(first_sentence.rstrip(".。"), 60)
    item: dict[str, Any] = {
        "action": "create", "level": level, "type": note_type, "content": text,
        "title": chosen_title,
        "summary": summary or _summary_within_line(first_sentence, note_type, chosen_title),
    }
    if expires is not None:
        item["expires"] = expires
    return apply_items(settings, [item], {}, dry_run=dry_run, strict=True,
                       on_conflict=on_conflict, source=Source("add"), own=True)


def _summary_within_line(summary: str, note_type: str, title: str) -> str:
    """The summary, shortened so that the note's index line stays within lint's limit."""
    from memcli.index import render_line
    from memcli.names import note_filename, slugify
    from memcli.text import shorten

    filename = note_filename(note_type, slugify(title))
    bare = render_line(IndexEntry("", note_type, title, "", filename))
    room = MAX_INDEX_LINE - len(bare) - len(" — ")
    return shorten(summary, max(room, 24))

