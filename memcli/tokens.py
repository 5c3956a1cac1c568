"""Token counts: an estimate, since no model's tokenizer ships with memcli.

tiktoken fetches its encodings over the network on first use, and every model family
tokenizes differently anyway; what a budget needs is a count that is close and never far
below the real one. The estimate: one token per CJK character (Chinese, Japanese and Korean
text runs at about one token a character in current tokenizers) and one token per four other
characters, rounded up (OpenAI's rule of thumb for English and code).
"""

from __future__ import annotations

import re

TOKENIZER = "estimate: 4 characters a token, 1 per CJK character"
_CJK = re.compile("[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                  "\uac00-\ud7af\uff00-\uffef]")


def count_tokens(text: str) -> int:
    cjk = len(_CJK.findall(text))
    rest = len(text) - cjk
    return cjk + (rest + 3) // 4
