"""`memcli extract --explain`: each operation names its message, sentence, cue, routing and
duplicate; each of the person's messages without an operation says why."""

from __future__ import annotations

import json
from typing import Any


def _turn(*texts: tuple[str, str]) -> str:
    return "".join(json.dumps({"role": role, "content": text}) + "\n" for role, text in texts)


TURN = _turn(
    ("user", "thanks. we're stuck on Node 18 in this repo. why is the build slow?"),
    ("assistant", "I'll remember that you always want pnpm."),
    ("user", "should we always use pnpm?"),
    ("user", "fix the failing test in utils.py"),
    ("user", "always use pnpm"),
    ("user", "Always use pnpm!"),
    ("user", "if we never used floats we wouldn't have this bug"),
)


def _explained(cli: Any, text: str, *flags: str) -> dict[str, Any]:
    result = cli("extract", "--provider", "rules", "--explain", "--json", *flags, input=text)
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    return dict(data["explain"])


def test_each_operation_names_its_sentence_cue_and_routing(cli: Any) -> None:
    explain = _explained(cli, TURN)
    ops = {o["title"]: o for o in explain["operations"]}
    assert set(ops) == {"Node.js version", "Package manager"}
    node = ops["Node.js version"]
    assert node["message"] == 1 and "stuck on Node 18" in node["sentence"]
    assert node["statement"] == "a fact about the repository"
    assert (node["level"], node["type"]) == ("project", "project_knowledge")
    pnpm = ops["Package manager"]
    assert pnpm["message"] == 6 and pnpm["sentence"] == "Always use pnpm!"
    assert "always" in pnpm["statement"] and pnpm["duplicate"] is None


def test_each_operation_says_which_part_found_it(cli: Any) -> None:
    # A cue and a score are trusted differently: --explain names which one made the note.
    ops = _explained(cli, TURN)["operations"]
    assert {o["found_by"] for o in ops} == {"the cue rules"}
    [learned] = _explained(cli, _turn(("user", "la base de datos de staging es postgres 16")))[
        "operations"]
    assert learned["found_by"] == "the learned detector"
    assert learned["statement"].startswith("the learned detector: lasting ")


def test_each_silent_message_says_why(cli: Any) -> None:
    silent = {m["message"]: m["reasons"] for m in _explained(cli, TURN)
              ["messages_without_operations"]}
    assert set(silent) == {3, 4, 5, 7}  # 2 is the assistant's; 1 and 6 gave operations
    assert any("a question" in r for r in silent[3])
    assert any("no memory cue" in r for r in silent[4])
    assert silent[5] == ["said again later in the turn; the later statement is kept"]
    assert any("hypothetical" in r for r in silent[7])


def test_the_duplicate_found_is_named(cli: Any, memenv: Any) -> None:
    assert cli("extract", "--provider", "rules", "--apply",
               input=_turn(("user", "remember that feature flags default to off"))).exit_code == 0
    [name] = memenv.notes("project")
    explain = _explained(cli, _turn(("user", "Remember that Feature\u200bflags default to OFF!")))
    [op] = explain["operations"]
    assert op["action"] == "update"
    assert op["duplicate"].startswith(f"updates project/{name}")

    refused = _explained(cli, _turn(("user", "remember that feature flags defaults to off.")),
                         "--on-conflict", "fail")
    assert refused["operations"] == [] and name in refused["refused"][0]
    [silent] = refused["messages_without_operations"]
    assert any("nearly repeats a stored note" in r for r in silent["reasons"])


def test_explain_on_a_terminal_goes_to_stderr(run_memcli: Any) -> None:
    proc = run_memcli("extract", "--provider", "rules", "--explain",
                      input=_turn(("user", "leave third_party/ alone, it's vendored"),
                                  ("user", "ok thanks")))
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)  # stdout stays the operations document
    assert "memcli: explain: #1 create project" in proc.stderr
    assert "a standing instruction" in proc.stderr
    assert "message 2 gave no operation" in proc.stderr


def test_without_explain_the_document_has_no_explanation(cli: Any) -> None:
    result = cli("extract", "--provider", "rules", "--json", input=TURN)
    assert "explain" not in json.loads(result.stdout)
