"""Write memcli/search/everyday.txt: the coding vocabulary's words that are everyday words.

    pip install -e '.[bench-words]' && python benchmarks/make_everyday.py

A word of the vocabulary (`test`, `build`, `explain`, `name`, `record`) often means what
it means outside code ("test my Spanish", "build a workout plan", "explain attention"):
a note that shares only such a word with a prompt asking for several things is no
evidence that the prompt is about it, where a tool's name (`redis`, `storybook`, `mkdocs`)
is (:func:`memcli.search.recall.supported`). Which words are everyday is read from general
word frequencies (wordfreq's, Zipf scale: 4.5 is about 30 times in a million words) in the
languages the vocabulary's Latin and Cyrillic terms are written in, never from a prompt set.
wordfreq is needed to write the list only; memcli reads the file.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from memcli.search import vocabulary  # noqa: E402

OUT = ROOT / "memcli" / "search" / "everyday.txt"
LANGUAGES = ("en", "es", "pt", "de", "fr", "it", "ru")
ZIPF = 4.5
NOT_ENGLISH = 1.5  # below this a word is not in English use (`mkdocs` is 0, `redis` 2.0)
_LINE = re.compile(r"^([a-z0-9-]+):\s*(.+)$")
_WORD = re.compile(r"^[^\W\d_]+$")  # one word of letters: not `c++`, `go test`, `prueba*`
_CJK = re.compile("[\u3040-\ud7af]")  # CJK terms are matched inside runs, not as words


def words() -> list[str]:
    """The vocabulary's one-word Latin and Cyrillic terms written in letters alone."""
    found: dict[str, None] = {}
    for line in vocabulary.text().splitlines():
        match = _LINE.match(line.strip())
        if not match or line.lstrip().startswith("#"):
            continue
        for term in (t.strip() for t in match.group(2).split(",")):
            if _WORD.match(term) and not _CJK.search(term):
                found[term.lower()] = None
    return list(found)


def everyday_word(word: str, zipf: Callable[[str, str], float]) -> bool:
    """Whether WORD is an everyday English word, or one of another language that English
    does not use (`biblioteca`, `umgebung`): `lidar`, `vite` and `vue` are tools in English
    text, whatever they mean in Portuguese or French."""
    english = zipf(word, "en")
    return english >= ZIPF or (english < NOT_ENGLISH
                               and max(zipf(word, lang) for lang in LANGUAGES[1:]) >= ZIPF)


def main() -> None:
    from wordfreq import zipf_frequency

    everyday = sorted(w for w in words() if everyday_word(w, zipf_frequency))
    header = ("# Written by benchmarks/make_everyday.py (do not edit by hand): the words of\n"
              "# vocabulary.txt that are everyday words (wordfreq Zipf >= "
              f"{ZIPF} in English, or in one of {', '.join(LANGUAGES[1:])}\n"
              f"# for a word below {NOT_ENGLISH} in English).\n")
    OUT.write_text(header + "\n".join(everyday) + "\n", "utf-8")
    print(f"{len(everyday)} everyday words of {len(words())} -> {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
