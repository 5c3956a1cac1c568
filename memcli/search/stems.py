"""Snowball's stems kept between commands, in the search cache's folder.

Every search analyses the coding vocabulary's terms before its prompt (3,500 words through
Snowball: a tenth of a second, a tenth of a warm search), and a first search every distinct
word of the notes. A word's stem depends on nothing but the stemmer, so the stems found are
kept in one file beside the stores' indexes, named after the stemmer's code (its size and
modification time): another version of the stemmer starts a new file. A file that cannot be
read or holds anything but words and their stems is ignored (and replaced).
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path

from memcli.search.analyze import keep_stems, new_stems

FORMAT = 1
MAX_KEPT = 1 << 15  # words, the vocabulary's 3,500 first: 0.7 MB of file, 4 ms to read, at most
# A longer "word" is a hash, a pasted blob or a hostile store's: stemmed again when met, never
# kept (32,768 words of a megabyte each would be a file of gigabytes).
MAX_WORD = 40

_loaded: set[Path] = set()


def memo_path(cache_dir: Path) -> Path | None:
    """Where the stems of the installed stemmer are kept in CACHE_DIR (None: no stemmer)."""
    import importlib.util

    spec = importlib.util.find_spec("snowballstemmer")
    if spec is None or not spec.submodule_search_locations:
        return None
    try:
        info = os.stat(os.path.join(spec.submodule_search_locations[0], "english_stemmer.py"))
    except OSError:
        return None
    return cache_dir / f"stems-{FORMAT}-{info.st_size}-{info.st_mtime_ns}.marshal"


def load(cache_dir: Path) -> None:
    """Take the stems kept in CACHE_DIR as known (once per folder in a process)."""
    path = memo_path(cache_dir)
    if path is None or path in _loaded:
        return
    _loaded.add(path)
    try:
        found = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return
    if isinstance(found, dict) and all(isinstance(k, str) and isinstance(v, str)
                                       for k, v in found.items()):
        keep_stems(found)


def save(cache_dir: Path) -> None:
    """Keep in CACHE_DIR the stems this command worked out (with those kept before)."""
    found = new_stems()
    path = memo_path(cache_dir)
    if not found or path is None:
        return
    kept: dict[str, str] = {}
    try:
        old = marshal.loads(path.read_bytes())
        if isinstance(old, dict):
            kept = {k: v for k, v in old.items() if isinstance(k, str) and isinstance(v, str)}
    except (OSError, EOFError, ValueError, TypeError):
        pass
    for word, stem in found.items():
        if len(kept) >= MAX_KEPT:
            break
        if len(word) <= MAX_WORD:
            kept[word] = stem
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(marshal.dumps(kept))
        os.replace(temporary, path)  # whole or not at all: a reader never sees half a file
    except OSError:
        temporary.unlink(missing_ok=True)
        return
    keep_stems(found)
