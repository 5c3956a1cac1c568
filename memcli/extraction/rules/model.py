"""What the rules extractor's stages hand each other, and the note kinds they produce."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

PROJECT, USER = "project", "user"
PREFERENCE = "user_preference"
CORRECTION = "correction_feedback"
KNOWLEDGE = "project_knowledge"
REFERENCE = "reference_material"

MAX_SUMMARY_CHARS = 120
MAX_TITLE_CHARS = 100
MAX_REASON_CHARS = 200
TITLE_WORDS = 8
TITLE_CJK_CHARS = 20


class KnownNote(Protocol):
    """What extraction needs to know about a note that is already stored (an index entry):
    the rules extractor routes by title, and the near-duplicate check compares summaries."""

    @property
    def level(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def summary(self) -> str: ...

    @property
    def filename(self) -> str: ...


# --------------------------------------------------------------------------- findings


@dataclass(frozen=True)
class Finding:
    level: str
    type: str
    title: str
    content: str
    quote: str
    # The tools named by an uncategorised "use X, not Y" correction; a later correction
    # that names one of them is about the same topic even though its title differs.
    terms: frozenset[str] = frozenset()
    message: int = 0  # 1-based, among all the messages read
    why: str = ""  # the cue and the kind of statement, for --explain
    routing: str = ""  # why this level and type, for --explain
    # An imperative with no cue word, kept for its object alone ("Prefix branches with
    # feat/"): in a longer task description such a line is a step of the task.
    generic: bool = False
    # It changes a fact the store may hold (a correction, an update, a reversal): the note
    # it is about is found by its slot or a tool both name, and updated.
    changes: bool = False
    learned: bool = False  # found by the learned detector, not by a cue rule


@dataclass(frozen=True)
class Skip:
    """A sentence of the person's that gave no operation, and why (for --explain)."""

    message: int
    sentence: str
    why: str


@dataclass(frozen=True)
class Hit:
    """A recognised statement, before routing: what it is and the text that becomes the note."""

    kind: str  # correction | rule | prefer | fact | reference | command | behaviour
    body: str  # masked text of the note body
    title: str | None = None
    terms: frozenset[str] = frozenset()
    rule: str = ""  # which kind of statement it was recognised as, for --explain
    generic: bool = False  # see Finding.generic


@dataclass(frozen=True)
class State:
    """A clause while its lead words are peeled off; the flags say which cues were seen."""

    text: str
    corrective: bool = False
    remember: bool = False
    todo: bool = False
    durable: bool = False
    personal: bool = False  # "save this as a preference:", "add a global memory:"
    aside: bool = False  # "fyi", "heads up", 备注: a fact may follow (see rules.asides)
    scoped: bool = False  # "in this repo," / 在这个仓库里: what "we" do here follows

    def but(self, **changes: str | bool) -> State:
        """``dataclasses.replace`` without its look at the fields on every call: a clause is
        replaced several times while its cues are peeled, and on a long chat session the
        look was a tenth of the extractor's time."""
        return State(**{**self.__dict__, **changes})
