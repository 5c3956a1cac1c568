"""memcli.tokens: the one token estimate (context and recall budgets, every --json's tokens,
`memcli status`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memcli.tokens import count_tokens


@pytest.mark.parametrize("text,tokens", [
    ("", 0), ("abcd", 1), ("abcde", 2), ("abcd" * 10, 10), ("café au lait", 3),
    ("部署命令", 4), ("中文ab", 3),
    # CJK punctuation and fullwidth forms are about a token each, like the characters.
    ("你好。", 3), ("好，走！", 4), ("「引用」", 4),
    # A word between CJK characters is a token of its own: 用 + " pnpm " (2) + 而不是 (3)
    # + " npm" (1) + 。 ; counted as one run of 12 other characters it was 3, and 。 a
    # quarter of one.
    ("用 pnpm 而不是 npm。", 8),
    ("日本語のテキスト", 8), ("한국어 텍스트", 7),
    ("\U00020000", 1),  # CJK Extension B, beyond the Basic Multilingual Plane
])
def test_token_estimate(text: str, tokens: int) -> None:
    assert count_tokens(text) == tokens


@given(st.text(alphabet=st.characters(codec="ascii")))
def test_ascii_text_is_four_characters_a_token(text: str) -> None:
    assert count_tokens(text) == -(-len(text) // 4)


@given(st.text(), st.text(), st.sampled_from("中あア한。，"))
def test_a_cjk_character_costs_one_token_and_ends_a_run(before: str, after: str,
                                                         cjk: str) -> None:
    # The runs on either side are rounded up on their own, so the sum splits there.
    assert count_tokens(before + cjk + after) == count_tokens(before) + 1 + count_tokens(after)
