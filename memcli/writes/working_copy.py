"""A store's notes as a batch of operations so far leaves them, for the planner to check
each operation against."""

from __future__ import annotations

from memcli.store.folder import NoteHead, StoreState, head_of
from memcli.store.names import name_key, title_key
from memcli.store.notes import Note, parse_note


class WorkingCopy:
    """A store's notes as the batch so far leaves them: the state's heads, and the notes the
    batch wrote (the others are parsed from the state only when an operation needs them)."""

    def __init__(self, state: StoreState) -> None:
        self.state = state
        self.heads: dict[str, NoteHead] = dict(state.heads)
        self.changed: dict[str, Note] = {}
        self.broken: dict[str, str] = dict(state.broken)
        self.written: dict[str, bytes | None] = {}
        self.keys: dict[str, str] = {
            name_key(n): n for n in (*state.heads, *state.broken, *state.unsafe)
        }
        # A title's notes: one, as memcli writes them; two or more when notes were written by
        # hand, imported or merged by git with the same title (which lint reports, M303).
        self.titles: dict[str, list[str]] = {}
        for f, h in state.heads.items():
            self.titles.setdefault(title_key(h.title), []).append(f)

    def holders(self, title: str) -> list[str]:
        """The notes whose title has TITLE's key."""
        return self.titles.get(title_key(title), [])

    def _untitle(self, filename: str, title: str) -> None:
        holders = self.titles.get(title_key(title), [])
        if filename in holders:
            holders.remove(filename)

    def find(self, filename: str) -> str | None:
        return self.keys.get(name_key(filename))

    def note(self, filename: str) -> Note:
        changed = self.changed.get(filename)
        return changed if changed is not None else self.state.notes[filename]

    def put(self, filename: str, data: bytes) -> None:
        note = parse_note(filename, data)
        old = self.heads.get(filename)
        if old is not None:
            self._untitle(filename, old.title)
        self.changed[filename] = note
        self.heads[filename] = head_of(self.state.level, note)
        self.keys[name_key(filename)] = filename
        self.titles.setdefault(title_key(note.title), []).append(filename)
        self.written[filename] = data

    def remove(self, filename: str) -> None:
        old = self.heads.pop(filename, None)
        self.changed.pop(filename, None)
        if old is not None:
            self._untitle(filename, old.title)
        self.broken.pop(filename, None)
        self.keys.pop(name_key(filename), None)
        self.written[filename] = None

    def index_text(self) -> str:
        view = self.state.replace(heads=self.heads, broken=self.broken)
        return view.rendered_index()
