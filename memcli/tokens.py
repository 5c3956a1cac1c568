"""Token counts: an estimate, since no model's tokenizer ships with memcli.

tiktoken fetches its encodings over the network on first use, and every model family
tokenizes differently anyway; what a budget needs is a count that is close and never far
below the real one. The estimate: one token per CJK character (Chinese, Japanese and Korean
text runs at about one token a character in current tokenizers) and one token per four other
characters, rounded up (OpenAI's rule of thumb for English and code).
"""

from __future__ import annotations

import functools
import re

TOKENIZER = "estimate: 4 characters a token, 1 per CJK character"


@functools.cache
def _cjk() -> re.Pattern[str]:
    # Compiled on first use: a class of this many code points costs 2 ms to compile, and
    # ASCII text (most notes, every --help) never needs it.
    return re.compile("[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                      "\uac00-\ud7af\uff00-\uffef]")


def count_tokens(text: str) -> int:
    cjk = 0 if text.isascii() else len(_cjk().findall(text))
    rest = len(text) - cjk
    return cjk + (rest + 3) // 4
