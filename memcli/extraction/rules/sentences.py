"""Masking code, links and quotations; sentences; the text helpers titles and summaries use."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable

from memcli.extraction.rules.model import MAX_TITLE_CHARS, TITLE_CJK_CHARS, TITLE_WORDS
from memcli.extraction.rules.patterns import lazy

# --------------------------------------------------------------------------- masking

# Code, URLs and quotations are swapped for placeholders before sentences are split and
# cues are looked for: their dots are not full stops and their words are not cues. The
# content gets them back verbatim.
_PH_RE = lazy("\ue000(\\d+)\ue001")
PH = "\ue000\\d+\ue001"
_INJECTED_TAG = r"(system-reminder|command-[\w-]+|local-command-[\w-]+|user-prompt-submit-hook)>"
_INJECTED_OPEN_RE = lazy("<" + _INJECTED_TAG)
_INJECTED_CLOSE_RE = lazy("</" + _INJECTED_TAG)
_BLOCKQUOTE_RE = lazy(r"^[ \t]*>.*$", re.M)
_LEAD_FENCE_RE = lazy(
    r":[ \t]*\n[ \t]*(```|~~~)[\w+-]*[ \t]*\n[ \t]*([^\n`]+?)[ \t]*\n[ \t]*\1[ \t]*(?=\n|$)")
_FENCE_RE = lazy(r"^[ \t]*(```|~~~).*?(?:^[ \t]*\1[ \t]*$|\Z)", re.M | re.S)
# A code span opens with at most 16 backticks (Markdown uses one to three): with a run of any
# length, each shorter opening of a long run was tried against the rest of the line again,
# cubic in the run. A longer run is read as runs of 16.
_INLINE_CODE_RE = lazy(r"(`{1,16})([^\n]+?)\1")
_URL_RE = lazy(r"https?://[^\s<>\"'`）」，。]+")
# A quotation holds no opening mark of its own kind: with `“[^”\n]*”`, every “ of a run that is
# never closed read to the end of the line again (7,500 of them: 1.9 s, 30,000: 10 s).
_QUOTE_RE = lazy(r"\"[^\"\n]*\"|“[^“”\n]*”|「[^「」\n]*」|『[^『』\n]*』")


# Lines pasted rather than said, dropped like a fenced block: a log line (a level, a
# timestamp, a traceback, "TypeError: …"), a code comment ("// never change this",
# an indented "# always return a list"), and what an assistant said ("Claude: I'll …").
_PASTED_LINE_RE = lazy(
    r"^[ \t]*(?:\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d\S*\]?[ \t]"
    r"|\[?(?:INFO|WARN|WARNING|ERROR|ERR!?|DEBUG|TRACE|FATAL|CRITICAL|NOTICE)\]?(?::|[ \t])"
    r"|npm (?:ERR!|WARN)|Traceback \(most recent call last\)|File \"[^\"\n]*\", line \d+"
    r"|at \S+ \(\S+:\d+:\d+\)|(?:[A-Z]\w*)?(?:Error|Exception):|[A-Z]\w*Warning:"
    r"|//|/\*|(?i:assistant|claude|chatgpt|gpt|copilot|gemini|codex|cursor|bot|助手)[ \t]*[:：])"
    r".*$|^(?:[ ]{2,}|\t)[ \t]*#.*$", re.M)


def _without_pasted_lines(text: str) -> str:
    if "\n" not in text:  # one line: one match at its start, not a search of every position
        return "" if _PASTED_LINE_RE.compiled.match(text) else text
    return _PASTED_LINE_RE.sub("", text)


def mask(text: str, slots: list[str]) -> str:
    text = drop_injected(text)
    text = _BLOCKQUOTE_RE.sub("", text)
    text = _without_pasted_lines(text)
    # A one-line block right after "…is:" is the value being stated; keep it as inline code.
    text = _LEAD_FENCE_RE.sub(lambda m: ": `" + m.group(2) + "`", text)
    text = _FENCE_RE.sub("\n", text)

    def hide(found: str) -> str:
        slots.append(found)
        return f"\ue000{len(slots) - 1}\ue001"

    text = _INLINE_CODE_RE.sub(lambda m: hide(m.group(0)), text)
    text = _URL_RE.sub(lambda m: _hide_url(m.group(0), hide), text)
    return _QUOTE_RE.sub(lambda m: hide(m.group(0)), text)


def drop_injected(text: str) -> str:
    """Each ``<tag>…</tag>`` an agent wraps around the person's words, as a line break.

    What ``re.sub(r"<(tag)>.*?</\\1>", "\\n", text, flags=re.S)`` gives, in one pass: that
    pattern reads to the end of the text from every opening tag that is never closed, and a
    pasted log may hold thousands of them. Here the closing tags are found once, and each
    opening tag takes the first closing tag of its name after it.
    """
    closing: dict[str, deque[int]] = {}
    for found in _INJECTED_CLOSE_RE.finditer(text):
        closing.setdefault(found.group(1), deque()).append(found.start())
    if not closing:
        return text
    pieces: list[str] = []
    done = 0  # the text before this is settled
    for opening in _INJECTED_OPEN_RE.finditer(text):
        ends = closing.get(opening.group(1))
        if opening.start() < done or not ends:
            continue
        while ends and ends[0] < opening.end():
            ends.popleft()
        if ends:
            pieces += (text[done:opening.start()], "\n")
            done = ends.popleft() + len(opening.group(1)) + len("</>")
    pieces.append(text[done:])
    return "".join(pieces)


def _hide_url(url: str, hide: Callable[[str], str]) -> str:
    core = url.rstrip(".,;:!?")
    if core.endswith(")") and core.count("(") < core.count(")"):
        core = core[:-1]
    return hide(core) + url[len(core):]


def restore(text: str, slots: list[str]) -> str:
    for _ in range(3):  # a quotation may hold a URL placeholder
        if "\ue000" not in text:
            break
        text = _PH_RE.sub(lambda m: slots[int(m.group(1))], text)
    return text


def url_slot(text: str, slots: list[str]) -> str | None:
    for match in _PH_RE.finditer(text):
        value = slots[int(match.group(1))]
        if value.startswith(("http://", "https://")):
            return value
    return None


# --------------------------------------------------------------------------- sentences

_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "eg", "ie", "etc", "vs", "cf", "approx", "incl", "mr", "mrs", "ms", "dr",
     "st", "al", "fig", "resp"})
_CJK_STOPS = "。！？\n"
_LONGEST_ABBREVIATION = max(len(word) for word in (*_ABBREVIATIONS, "etc"))


def is_cjk(ch: str) -> bool:
    return "\u3000" <= ch <= "\u9fff" or "\uac00" <= ch <= "\ud7af" or "\uff00" <= ch <= "\uffef"


def split_sentences(text: str) -> list[str]:
    pieces: list[str] = []
    start = 0
    for i, ch in enumerate(text):
        if ch in _CJK_STOPS or (ch in ".!?" and _ends_sentence(text, i)):
            pieces.append(text[start:i + 1])
            start = i + 1
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def _ends_sentence(text: str, i: int) -> bool:
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if nxt and not (nxt.isspace() or is_cjk(nxt)):
        return False  # setup.py, 3.11, "?!", a URL that was not masked
    if text[i] != ".":
        return True
    # The word before the stop, looked at no further back than the longest abbreviation
    # (a longer one is none): a text of stops and no spaces would be read back whole at each.
    j, limit = i, max(0, i - _LONGEST_ABBREVIATION - 1)
    while j > limit and (text[j - 1].isalnum() or text[j - 1] == "."):
        j -= 1
    word = text[j:i].lower()
    if word == "etc":  # "etc." closes a list, and often the sentence: "…etc. Always run…"
        return text[i + 2:i + 3].isupper()
    return word not in _ABBREVIATIONS


_FILE_NAME_RE = lazy(r"\w\.\w{2,}")


def capitalise(text: str) -> str:
    # "dist/ is generated", "npm test is…": a path or a name keeps its spelling.
    first = text.split(maxsplit=1)[0] if text.strip() else ""
    if "/" in first or "_" in first or _FILE_NAME_RE.search(first):
        return text
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def cut_title(text: str, words: int = TITLE_WORDS) -> str:
    # An aside in brackets is detail, and cutting inside one leaves a dangling "(see".
    text = " ".join(_ASIDE_RE.sub("", text).split()) or text
    if any(is_cjk(ch) for ch in text) and len(text.split()) < 3:
        cut = text[:TITLE_CJK_CHARS]
    else:
        cut = " ".join(text.split()[:words])
        # A title ends better at a comma than mid-clause: "Don't run the e2e suite locally".
        head = cut.split(",")[0]
        if len(cut.split()) == words and len(text.split()) > words and len(head.split()) >= 4:
            cut = head
    return capitalise(cut.rstrip(" ,;:，；：、")[:MAX_TITLE_CHARS].rstrip())


_ASIDE_RE = lazy(r"\s*[(（][^)）]*(?:[)）]|$)")


def shorten(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit - 1]
    if " " in cut[limit // 2:]:
        cut = cut[:cut.rfind(" ")]
    return cut.rstrip(" ,;:") + "…"
