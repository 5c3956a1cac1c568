"""parse_reply: tolerant of the wrapping models put around JSON, honest about broken JSON."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.errors import ProviderError
from memcli.operations.reply import parse_reply

CREATE = {
    "action": "create",
    "level": "project",
    "type": "project_knowledge",
    "title": "Build",
    "content": "Run `go test ./...` before a release.",
}
DELETE = {"action": "delete", "level": "user", "filename": "user_preference_x.md"}
DOC = json.dumps({"operations": [CREATE, DELETE]}, ensure_ascii=False)


@pytest.mark.parametrize(
    "reply",
    [
        DOC,
        f"```json\n{DOC}\n```",
        f"```\n{DOC}\n```\n",
        f"Here are the operations:\n\n```json\n{DOC}\n```\n\nLet me know if [anything] changes.",
        f'<think>\nThe user wants {{"action": "create"}}? Maybe [1].\n</think>\n\n{DOC}',
        f"<think>a</think><think>b</think>{DOC}",
        f"<THINKING>plan</THINKING>\n{DOC}",
        # Chat templates that put "<think>" into the prompt leave only the closing tag.
        f'I should look at the transcript... {{"draft": true}}\n</think>\n\n{DOC}',
        json.dumps([CREATE, DELETE]),
        f"Sure! {json.dumps(CREATE)}\n{json.dumps(DELETE)}",
        f"{json.dumps({'operations': [CREATE]})}\n{json.dumps({'operations': [DELETE]})}",
        f"The answer [see below]:\n{DOC}\nSources: [1], [2, 3].",
    ],
)
def test_the_operations_are_found_whatever_is_around_them(reply: str) -> None:
    assert parse_reply(reply) == [CREATE, DELETE]


def test_a_single_operation_object() -> None:
    assert parse_reply(json.dumps(CREATE)) == [CREATE]


@pytest.mark.parametrize(
    "reply", ['{"operations": []}', "[]", '```json\n{"operations": []}\n```', "Nothing: []"]
)
def test_nothing_to_remember_is_an_empty_list(reply: str) -> None:
    assert parse_reply(reply) == []


def test_items_that_are_not_objects_come_back_for_the_validator() -> None:
    assert parse_reply('{"operations": [{"action": "noop"}, "oops", 3, null]}') == [
        {"action": "noop"},
        "oops",
        3,
        None,
    ]
    assert parse_reply('[{"action": "noop"}, ["x"]]') == [{"action": "noop"}, ["x"]]


def test_think_tags_inside_json_strings_are_content() -> None:
    op = {"action": "create", "content": "Wrap reasoning in </think> tags."}
    assert parse_reply(json.dumps([op])) == [op]
    assert parse_reply("<think>x</think>" + json.dumps([op])) == [op]


def test_an_unclosed_think_at_the_start_is_tolerated() -> None:
    assert parse_reply(f"<think>\nhmm, let me answer.\n{DOC}") == [CREATE, DELETE]


@pytest.mark.parametrize(
    ("reply", "match"),
    [
        ("", "empty answer"),
        ("  \n\t ", "empty answer"),
        ("Nothing worth remembering here.", 'no JSON operations.*"Nothing worth remembering'),
        ('{"note": "no operations key"}', "no JSON operations"),
        ("See [1] and [2].", "no JSON operations"),
        ("<think>I am still thinking when the tokens ran out", "<think> block that never ends"),
        (f"<think>{DOC}</think>", "no JSON operations"),  # only a draft, then nothing
        ('{"operations": [{"action": "noop"},]}', "does not parse"),
        ('[{"action": "noop",}]', "does not parse"),
        ("{\u201coperations\u201d: []}", "does not parse"),
        ("{'action': 'noop'}", "does not parse"),
        ('Here: {"operations": [{"action": "create", "content": "long', "cut off"),
        ('{"operations": [{"action": "noop"}', "cut off"),
        ('{"operations": "none"}', "is a string, not a list"),
        ('{"operations": null}', "is null, not a list"),
        ("[" * 3000, "does not parse"),
    ],
)
def test_unusable_replies_are_a_provider_error(reply: str, match: str) -> None:
    with pytest.raises(ProviderError, match=match) as info:
        parse_reply(reply)
    assert "\n" not in str(info.value)


def test_the_message_quotes_the_start_of_the_reply_on_one_line() -> None:
    reply = "I cannot help with that.\n" + "x" * 500
    with pytest.raises(ProviderError) as info:
        parse_reply(reply)
    message = str(info.value)
    assert '"I cannot help with that. xxx' in message
    assert len(message) < 200


def test_broken_json_is_not_mined_for_the_objects_inside_it() -> None:
    # The inner objects parse on their own; returning them would hide the broken outer one.
    with pytest.raises(ProviderError, match="does not parse"):
        parse_reply(f'{{"operations": [{json.dumps(CREATE)}, {json.dumps(DELETE)},]}}')


# --- properties --------------------------------------------------------------------------


@settings(max_examples=examples(300), deadline=None)
@given(st.text())
def test_arbitrary_text_gives_a_list_or_a_provider_error(text: str) -> None:
    try:
        result = parse_reply(text)
    except ProviderError as error:
        assert "\n" not in str(error)
    else:
        assert isinstance(result, list)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(alphabet="{}[]\"',:<>/thinkg \n`0123456789aoperations"))
def test_json_like_noise_gives_a_list_or_a_provider_error(text: str) -> None:
    with contextlib.suppress(ProviderError):
        assert isinstance(parse_reply(text), list)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)
# Prose around the JSON holds no brackets and no "<": those would be JSON or tags.
prose = st.text(
    alphabet=st.characters(exclude_characters="{}[]<"),
    max_size=60,
)


@settings(max_examples=examples(300), deadline=None)
@given(
    operations=st.lists(st.dictionaries(st.text(max_size=10), json_values, max_size=4), max_size=4),
    before=prose,
    after=prose,
    fence=st.sampled_from(["", "```", "```json"]),
    wrap=st.booleans(),
    think=st.booleans(),
    indent=st.sampled_from([None, 2]),
    ascii_only=st.booleans(),
)
def test_any_list_of_objects_round_trips_through_prose_and_fences(
    operations: list[dict[str, Any]],
    before: str,
    after: str,
    fence: str,
    wrap: bool,
    think: bool,
    indent: int | None,
    ascii_only: bool,
) -> None:
    document: Any = {"operations": operations} if wrap else operations
    body = json.dumps(document, indent=indent, ensure_ascii=ascii_only)
    if fence:
        body = f"{fence}\n{body}\n```"
    reply = f"{before}\n{body}\n{after}"
    if think:
        reply = f"<think>{before}</think>{reply}"
    assert parse_reply(reply) == operations


def test_a_window_edge_inside_an_escape_is_not_broken_json() -> None:
    """A value longer than the first decoding window whose escape straddles the window's end."""
    from memcli.operations.reply import _WINDOWS

    prefix = len('{"operations": [{"action": "noop", "content": "')
    for shift in range(1, 13):  # an escape is 12 characters: cut it at every place
        content = "x" * (_WINDOWS[0] - prefix - shift) + "\U0005d221" * 8
        reply = json.dumps({"operations": [{"action": "noop", "content": content}]},
                           ensure_ascii=True)
        assert parse_reply(reply)[0]["content"] == content
