"""Which languages the offline extractor reads, and a turn written in another one.

The learned detector was trained on ten languages (docs/extractor-model.md); a turn in
another gives it words it never saw, and it fires at random on them. Such a turn is told
apart by its letters: a script none of the ten is written in (Arabic, Hebrew, Devanagari,
Thai, Greek, ...), or Latin and Cyrillic letters that only other languages use (Polish ł,
Turkish ş, Vietnamese ơ, Ukrainian ї). A language written only with the letters of the ten
(Dutch, Swedish) is not told apart.
"""

from __future__ import annotations

import unicodedata

READ = ("en", "zh", "es", "pt", "de", "fr", "ja", "ko", "ru", "it")
NAMES = "English, Chinese, Spanish, Portuguese, German, French, Japanese, Korean, " \
        "Russian and Italian"
_SCRIPTS = ("LATIN", "CJK", "HIRAGANA", "KATAKANA", "HANGUL", "CYRILLIC")
_OTHER_LETTERS = frozenset(
    "łżśćńąęőűşğıřěůťďňľĺŕșțăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ"
    "іїєґўђћџљњ")
_MIN_LETTERS = 4


def unread_language(text: str) -> bool:
    """True when most of the text's letters are in a script (or a Latin or Cyrillic
    alphabet) of a language the extractor does not read."""
    letters = read = foreign_marks = 0
    for ch in text:
        if not ch.isalpha():
            continue
        letters += 1
        if ch.lower() in _OTHER_LETTERS:
            foreign_marks += 1
            continue
        name = unicodedata.name(ch, "")
        if name.startswith(_SCRIPTS) or "IDEOGRAPH" in name or "FULLWIDTH" in name:
            read += 1
    if letters < _MIN_LETTERS:
        return False
    return read < letters / 2 or foreign_marks >= (1 if letters < 40 else 2)


def unread_notice(messages: int) -> str:
    noun = "message" if messages == 1 else "messages"
    return (f"the offline extractor does not read the language of the {noun} "
            f"(it reads {NAMES}); use --provider openai or anthropic (or a local server "
            "with --base-url) to extract from it")
