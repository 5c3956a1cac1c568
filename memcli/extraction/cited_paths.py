"""The files a memory names: what an extractor cites when a note it proposes names a path
(or a script a command runs) that exists in the repository at that moment.

Only words that look like a path are tried (a '/' or a file extension), and only a regular
file inside the repository, reached without a link, becomes an anchor: a transcript is
untrusted, and a path it names is checked like any other anchor (memcli.store.anchors).
"""

from __future__ import annotations

from collections.abc import Sequence

from memcli.store.anchor_check import pin
from memcli.store.anchor_repository import Repository
from memcli.store.anchors import Anchor, AnchorError, check_path, cites_value

MAX_CITED = 5  # a note about more files than this is about none of them in particular
_EDGES = "`'\"()[]{}<>,;:!?*"
# The file a command in backticks runs from: `make test` is the Makefile's target. Only in
# backticks: "make sure" is English.
_RUNNERS = {
    "make": ("Makefile", "makefile", "GNUmakefile"), "just": ("justfile", "Justfile"),
    "npm": ("package.json",), "pnpm": ("package.json",), "yarn": ("package.json",),
    "tox": ("tox.ini",), "nox": ("noxfile.py",), "rake": ("Rakefile",),
}


def paths_named(text: str) -> list[str]:
    """The words of TEXT that could be repository paths, in order, each once, then the
    files that the commands in its backticks run from."""
    found: list[str] = []
    for span in text.split("`")[1::2]:
        words = span.split()
        if len(words) >= 2 and words[0] in _RUNNERS:
            found += [name for name in _RUNNERS[words[0]] if name not in found]
    words_found = _words(text)
    return [*[p for p in words_found if p not in found], *found]


def _words(text: str) -> list[str]:
    found: list[str] = []
    for word in text.split():
        word = word.strip(_EDGES).rstrip(".")
        if word.startswith("./"):
            word = word[2:]
        if (len(word) > 200 or "://" in word or word.startswith(("-", "$", "~", "/"))
                or not ("/" in word or _has_extension(word))):
            continue
        try:
            path = check_path(word)
        except AnchorError:
            continue
        if path not in found:
            found.append(path)
    return found


def _has_extension(word: str) -> bool:
    stem, dot, ext = word.rpartition(".")
    return bool(dot and stem and 1 <= len(ext) <= 10 and ext.isalnum() and not ext.isdigit())


def cites_for(repo: Repository, texts: Sequence[str]) -> list[dict[str, str]]:
    """The anchors, pinned now, of the files that TEXTS name and the repository holds."""
    anchors: list[Anchor] = []
    named = [p for text in texts for p in paths_named(text)]
    repo.prepare(p for p in named if repo.on_disk(p) is not None)  # git asked once
    for path in named:
        if len(anchors) == MAX_CITED:
            break
        if any(a.path == path for a in anchors) or repo.safe_path(path) is None:
            continue
        try:
            anchors.append(pin(repo, Anchor(path)))
        except AnchorError:
            continue
    return cites_value(anchors)
