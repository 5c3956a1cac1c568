"""Near-duplicate titles within a level (M303), the same note in both levels (M304), and
`memcli sync`'s conflict copies (M311)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from memcli.commands.lint._report import Finding, finding
from memcli.commands.lint._scan import StoreScan
from memcli.store.names import name_key, title_key
from memcli.text import MAX_NEAR_TOKENS, clip, title_tokens


def near_duplicates(titles: Iterable[tuple[str, str]]) -> dict[str, str]:
    """File name -> an earlier file whose title says nearly the same.

    Near means what it means to ``memcli extract`` (:mod:`memcli.extraction.similarity`'s title
    words): the same words in any order, case, spacing or plural; the same letters with different
    word breaks ("work-flow"); or one word more or less among four or more. Files are taken
    in name order; of the earlier files a title nearly repeats, the one named is the first
    with the same words, else the first with the same letters, else the first with one word
    more, else, for the first of its words that leaving out gives an earlier title's words
    (the words in sorted order), that title's first file.

    Bucketed by keys, so a store of n notes costs O(n * words), never O(n^2). A set of words
    is keyed by its sorted words joined by spaces (words never hold one). Two passes: the
    first keys every title's words and letters; the second looks each title's words less
    one up among them. Only the titles' own keys are kept, not the four or more words-less-
    one of each title (on 100,000 titles that was half a million keys, and dictionaries
    that size cost more per key than small ones).
    """
    keyed: list[tuple[str, str, str]] = []  # (file name, words, letters) in name order
    first_words: dict[str, int] = {}  # words -> the first title (its place in keyed)
    first_joined: dict[str, int] = {}
    for filename, title in sorted(titles):
        tokens = title_tokens(title)
        if not tokens:
            continue
        words, joined = " ".join(sorted(set(tokens))), "".join(tokens)
        place = len(keyed)
        keyed.append((filename, words, joined))
        first_words.setdefault(words, place)
        first_joined.setdefault(joined, place)
    # A title's words -> the first title that holds them and one word more.
    first_more: dict[str, int] = {}
    found: dict[str, str] = {}
    for place, (filename, words, joined) in enumerate(keyed):
        unique = words.split(" ")
        less = (_without_one(words, unique) if 4 <= len(unique) <= MAX_NEAR_TOKENS else [])
        # Leaving one word out gives an earlier or later title's words: rare, kept.
        hits = [(smaller, at) for smaller in less if (at := first_words.get(smaller)) is not None]
        match = first_words[words]
        if match == place:
            match = first_joined[joined]
        if match == place:
            match = first_more.get(words, place)
        if match == place:
            match = next((at for _, at in hits if at < place), place)
        if match < place:
            found[filename] = keyed[match][0]
        for smaller, _ in hits:
            first_more.setdefault(smaller, place)
    return found


def _without_one(words: str, unique: list[str]) -> list[str]:
    """WORDS (UNIQUE joined by spaces) with each word left out in turn, cut out of WORDS
    rather than joined again."""
    out: list[str] = []
    start = 0
    last = len(unique) - 1
    for i, word in enumerate(unique):
        end = start + len(word)
        if i == 0:
            out.append(words[end + 1:])
        elif i == last:
            out.append(words[:start - 1])
        else:
            out.append(words[:start] + words[end + 1:])
        start = end + 1
    return out


def _titles(scan: StoreScan) -> Iterator[tuple[str, str]]:
    for name, facts in scan.notes.items():
        if facts.title is not None:
            yield name, facts.title


def near_duplicate_titles(scan: StoreScan) -> Iterator[Finding]:
    # A conflict copy repeats its original's title by design: M311 says what to do with it.
    titles = {name: title for name, title in _titles(scan)
              if scan.notes[name].conflict_of is None}
    for name, earlier in near_duplicates(titles.items()).items():
        yield finding("M303", scan.file(name), scan.notes[name].title_line,
                      f"the title '{clip(titles[name])}' nearly repeats "
                      f"'{clip(titles[earlier])}' ({earlier}); merge the two notes or make "
                      "the titles distinct")


def both_levels(project: StoreScan, user: StoreScan) -> Iterator[Finding]:
    user_names = {name_key(n): n for n in user.notes}
    user_titles = {title_key(t): n for n, t in _titles(user)}
    project_titles = dict(_titles(project))
    for name in project.notes:
        twin = user_names.get(name_key(name))
        if twin is None and name in project_titles:
            twin = user_titles.get(title_key(project_titles[name]))
        if twin is not None:
            yield finding("M304", project.file(name), 1,
                          f"the user store holds the same note ({user.file(twin)}); keep it "
                          "in one level")


def conflict_copies(scan: StoreScan) -> Iterator[Finding]:
    """A note `memcli sync` kept beside another because both machines changed it."""
    for name, facts in scan.notes.items():
        original = facts.conflict_of
        if original is None:
            continue
        yield finding("M311", scan.file(name), 1,
                      f"this machine's version of {original}, which another machine changed "
                      f"too (memcli sync); merge what it says into {original} by hand, then "
                      f"`memcli rm {scan.level}/{name}` and `memcli sync`")
