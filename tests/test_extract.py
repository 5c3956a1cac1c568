"""`memcli extract` end to end: transcript in, prompt out over real HTTP, operations validated.

The LLM is faked at the HTTP boundary only: a real server on 127.0.0.1 (tests/fakeserver.py)
streaming the providers' byte-exact wire formats.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import stamina
from conftest import invoke_memcli
from fakeserver import FakeServer, Step, anthropic_stream, json_step, openai_stream, sse

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "turn.jsonl"
FIXTURES = ROOT / "tests" / "fixtures" / "transcripts"
GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
TURN_WITH_SECRET = (
    json.dumps({"role": "user", "content": f"Remember that the CI token is {GITHUB_TOKEN}."})
    + "\n"
    + json.dumps({"role": "user", "content": "From now on, always answer in French."})
    + "\n"
)


def _op(**fields: Any) -> dict[str, Any]:
    base = {"action": "create", "level": "project", "type": "project_knowledge",
            "title": "Test command", "content": "Run `make test` before pushing."}
    return {**base, **fields}


def _reply(ops: list[dict[str, Any]]) -> str:
    return json.dumps({"operations": ops})


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    values = {
        "HOME": str(tmp_path / "home"),
        "MEMCLI_HOME": str(tmp_path / "home" / ".memcli"),
        "MEMCLI_PROJECT_STORE": str(tmp_path / "repo" / ".memcli" / "memory"),
        "MEMCLI_NOW": "2026-11-30T12:00:00Z",
        "NO_COLOR": "1",
    }
    for name in ("MEMCLI_PROVIDER", "MEMCLI_MODEL", "MEMCLI_BASE_URL", "OPENAI_BASE_URL",
                 "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MEMCLI_API_KEY", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(tmp_path)
    return values


def _use(monkeypatch: pytest.MonkeyPatch, server: FakeServer, provider: str = "openai") -> None:
    monkeypatch.setenv("MEMCLI_PROVIDER", provider)
    monkeypatch.setenv("MEMCLI_MODEL", "test-model")
    suffix = "/v1" if provider == "openai" else ""
    monkeypatch.setenv("MEMCLI_BASE_URL", server.url + suffix)
    monkeypatch.setenv("MEMCLI_API_KEY", "sk-test-key-not-secret")


def _tree(path: Path) -> dict[str, bytes]:
    if not path.exists():
        return {}
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file()}


def _stores(env: dict[str, str]) -> dict[str, bytes]:
    # memcli's caches (cache/: derived, deleting them loses nothing) are not the stores.
    return {**_tree(Path(env["MEMCLI_PROJECT_STORE"])),
            **{"user/" + k: v for k, v in _tree(Path(env["MEMCLI_HOME"])).items()
               if not k.startswith("cache/")}}


def _invoke(*args: str, input: str | None = None) -> Any:
    return invoke_memcli(*args, input=input)


# --------------------------------------------------------------------------- rules, offline


def test_example_turn_gives_a_preference_a_correction_and_a_project_fact(
    env: dict[str, str],
) -> None:
    result = _invoke("extract", "--input", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    kinds = {(op["level"], op["type"]) for op in document["operations"]}
    assert ("user", "user_preference") in kinds
    assert ("project", "correction_feedback") in kinds
    assert ("project", "project_knowledge") in kinds
    assert document["extractor"]["provider"] == "rules"
    assert set(document["base"]) == {"project", "user"}
    assert _stores(env) == {}, "extract without --apply must not write"


def test_one_redacted_secret_is_counted_in_the_singular(env: dict[str, str]) -> None:
    result = _invoke("extract", "--dry-run", input=TURN_WITH_SECRET)
    assert result.exit_code == 0, result.output
    assert "memcli: redacted 1 secret from the transcript\n" in result.stderr
    assert GITHUB_TOKEN not in result.output


def test_extract_apply_then_again_updates_instead_of_duplicating(env: dict[str, str]) -> None:
    first = _invoke("extract", "--apply", "--input", str(EXAMPLE))
    assert first.exit_code == 0, first.output
    notes = sorted(Path(env["MEMCLI_PROJECT_STORE"]).glob("*_*.md"))
    assert notes, "the project store should hold notes after --apply"
    second = _invoke("extract", "--apply", "--input", str(EXAMPLE))
    assert second.exit_code == 0, second.output
    assert sorted(Path(env["MEMCLI_PROJECT_STORE"]).glob("*_*.md")) == notes
    check = _invoke("index", "--check")
    assert check.exit_code == 0, check.output


def test_dry_run_shows_a_diff_and_writes_nothing(env: dict[str, str]) -> None:
    result = _invoke("extract", "--dry-run", "--input", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    assert "+++ b/project/MEMORY.md" in result.stdout
    assert "+++ b/user/MEMORY.md" in result.stdout
    assert _stores(env) == {}


def test_show_prompt_holds_date_indexes_and_turn_but_no_tool_output(env: dict[str, str]) -> None:
    _invoke("add", "--type", "project_knowledge", "--title", "Deploy", "Deploy with `make ship`.")
    result = _invoke("extract", "--show-prompt", "--input", str(EXAMPLE))
    assert result.exit_code == 0, result.output
    prompt = result.stdout
    assert "2026-11-30" in prompt
    assert "(project_knowledge_deploy.md)" in prompt
    assert "use uv instead of pip" in prompt
    assert "externally-managed-environment" not in prompt  # a tool result
    assert "The user wants uv." not in prompt  # thinking
    assert '{"operations": []}' in prompt


def test_unreadable_transcript_is_an_error_that_says_what_it_saw(env: dict[str, str]) -> None:
    # Once a silent exit 0 with no operations: a file nothing could be read from is a mistake.
    result = _invoke("extract", input='{"type": "summary", "summary": "x"}\nnot json\n')
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1
    assert "no messages found: 2 lines" in result.stderr
    assert "type=summary: 1" in result.stderr


def test_known_records_without_messages_say_so_and_give_no_operations(
    env: dict[str, str],
) -> None:
    line = '{"type": "summary", "summary": "x", "leafUuid": "u"}\n'
    result = _invoke("extract", input=line)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["operations"] == []
    # one line (it was two: a count of what was skipped and a warning that said it again)
    assert result.stderr.count("\n") == 1
    assert "nothing to extract: the transcript holds no message" in result.stderr


def test_unknown_lines_beside_known_ones_warn_with_counts_and_strict_fails(
    env: dict[str, str],
) -> None:
    text = '{"role": "user", "content": "hi"}\n{"kind": 1}\n{"kind": 2}\n'
    result = _invoke("extract", input=text)
    assert result.exit_code == 0, result.output
    assert "skipped 2 records of unknown shape (object with keys kind: 2)" in result.stderr
    strict = _invoke("extract", "--strict", input=text)
    assert strict.exit_code == 2
    assert strict.stderr.startswith("memcli: error: transcript has 2 records of unknown shape")


def test_empty_transcript_is_a_no_op_that_says_so(env: dict[str, str]) -> None:
    # Not an error (a hook fires on turns with nothing new), but never a silent empty read.
    result = _invoke("extract", input="\n  \n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["operations"] == []
    assert result.stderr == "memcli: nothing to extract: the transcript is empty\n"


def test_every_fixture_transcript_extracts_without_a_crash(env: dict[str, str]) -> None:
    for path in sorted(FIXTURES.rglob("*.jsonl")):
        result = _invoke("extract", "--input", str(path))
        assert result.exit_code in (0, 1), (path.name, result.output)
        assert "operations" in json.loads(result.stdout), path.name


def test_not_utf8_input_is_a_usage_error(env: dict[str, str], tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"role": "user", "content": "\xff\xfe"}\n')
    result = _invoke("extract", "--input", str(bad))
    assert result.exit_code == 2
    assert "UTF-8" in result.stderr


# --------------------------------------------------------------------------- openai over HTTP


def test_openai_request_body_is_exact_and_carries_no_secret(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeServer() as server:
        _use(monkeypatch, server)
        server.script(Step(body=openai_stream([_reply([_op()])])))
        result = _invoke("extract", "--json", input=TURN_WITH_SECRET)
    assert result.exit_code == 0, result.output
    assert len(server.requests) == 1
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    body = request.json()
    assert body["model"] == "test-model"
    assert body["stream"] is True
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert body["response_format"]["type"] == "json_schema"
    assert GITHUB_TOKEN not in request.body.decode()
    assert "[REDACTED]" in body["messages"][1]["content"]
    report = json.loads(result.stdout)
    assert report["transcript"]["redacted"] == 1
    assert report["extractor"]["input_tokens"] == 11
    assert report["operations"][0]["title"] == "Test command"


def test_one_invalid_operation_of_three_is_reported_and_the_others_kept(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ops = [_op(), _op(title="Lint command", content="Run `make lint`.", type="no_such_type"),
           _op(title="Build", content="Build with `make`.")]
    with FakeServer() as server:
        _use(monkeypatch, server)
        server.script(Step(body=openai_stream([_reply(ops)])))
        result = _invoke("extract", input=TURN_WITH_SECRET)
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert [op["title"] for op in document["operations"]] == ["Test command", "Build"]
    assert "#2" in result.stderr and "type" in result.stderr


@pytest.mark.parametrize(
    "reply",
    [
        "```json\n" + _reply([_op()]) + "\n```",
        "<think>The user wants tests.</think>\n" + _reply([_op()]),
        "Here is what I found:\n" + _reply([_op()]) + "\nLet me know if you need more.",
    ],
    ids=["fenced", "think", "prose-after"],
)
def test_tolerant_reply_parsing_end_to_end(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, reply: str
) -> None:
    with FakeServer() as server:
        _use(monkeypatch, server)
        server.script(Step(body=openai_stream([reply[:7], reply[7:]])))
        result = _invoke("extract", "--apply", input=TURN_WITH_SECRET)
    assert result.exit_code == 0, result.output
    assert (Path(env["MEMCLI_PROJECT_STORE"]) / "project_knowledge_test-command.md").exists()


def test_model_deletes_need_allow_delete(env: dict[str, str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _invoke("add", "--type", "project_knowledge", "--title", "Deploy", "Deploy with `make ship`.")
    delete = {"action": "delete", "level": "project", "filename": "project_knowledge_deploy.md"}
    with FakeServer() as server:
        _use(monkeypatch, server)
        server.script(Step(body=openai_stream([_reply([delete])])))
        refused = _invoke("extract", "--apply", input=TURN_WITH_SECRET)
        server.script(Step(body=openai_stream([_reply([delete])])))
        allowed = _invoke("extract", "--apply", "--allow-delete", input=TURN_WITH_SECRET)
    assert refused.exit_code == 1
    assert "--allow-delete" in refused.stderr
    assert allowed.exit_code == 0, allowed.output
    assert not (Path(env["MEMCLI_PROJECT_STORE"]) / "project_knowledge_deploy.md").exists()


def test_a_runaway_reply_is_cut_at_the_operation_limit(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ops = [_op(title=f"Fact {i}", content=f"Fact number {i}.") for i in range(40)]
    with FakeServer() as server:
        _use(monkeypatch, server)
        server.script(Step(body=openai_stream([_reply(ops)])))
        result = _invoke("extract", "--json", input=TURN_WITH_SECRET)
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert len(report["operations"]) == 25
    # Dropped, not rejected: each was valid, and a line per operation was noise.
    assert report["rejected"] == []
    assert [d["position"] for d in report["dropped"]] == list(range(26, 41))
    assert report["dropped"][0] == {"position": 26, "action": "create", "title": "Fact 25"}


def test_a_runaway_reply_says_in_one_line_how_many_were_dropped(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # 81 operations printed 56 stderr lines, one per dropped operation.
    ops: list[dict[str, Any]] = [_op(title=f"Fact {i}", content=f"Fact number {i}.")
                                 for i in range(75)]
    ops += [{"action": "update", "level": "project", "filename": "project_knowledge_x.md",
             "content": "New."}] * 4 + [{"action": "fly"}, "not an object"]
    with FakeServer() as server:
        _use(monkeypatch, server)
        server.script(Step(body=openai_stream([_reply(ops)])))
        result = _invoke("extract", input=TURN_WITH_SECRET)
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if "operation" in line]
    assert lines == ["memcli: error: dropped 56 operations from the openai extractor past the "
                     "25 one turn may hold (50 create, 4 update, 2 invalid; #26-#81 of the "
                     "reply); `--json` lists them"], result.stderr
    assert len(json.loads(result.stdout)["operations"]) == 25


def test_one_operation_past_the_limit_is_named_alone(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    ops = [_op(title=f"Fact {i}", content=f"Fact number {i}.") for i in range(26)]
    with FakeServer() as server:
        _use(monkeypatch, server)
        server.script(Step(body=openai_stream([_reply(ops)])))
        result = _invoke("extract", input=TURN_WITH_SECRET)
    assert result.exit_code == 1
    assert ("dropped 1 operation from the openai extractor past the 25 one turn may hold "
            "(1 create; #26 of the reply)") in result.stderr


# --------------------------------------------------------------------------- failures write nothing


def _seed(env: dict[str, str]) -> dict[str, bytes]:
    assert _invoke("add", "--title", "Deploy", "Deploy with `make ship`.").exit_code == 0
    assert _invoke("add", "--level", "user", "--type", "user_preference", "--title", "Tone",
                   "Be brief.").exit_code == 0
    return _stores(env)


@pytest.mark.parametrize(
    ("provider", "steps", "message"),
    [
        ("openai", [json_step(401, {"error": {"message": "bad key"}})], "OPENAI_API_KEY"),
        ("openai", [json_step(404, {"error": {"message": "no model"}})], "test-model"),
        ("openai", [Step(body=openai_stream([""]))], "empty answer"),
        ("openai", [Step(body=openai_stream([_reply([_op()])])[:2], drop_after=10)] * 6, ""),
        ("anthropic", [Step(body=[*anthropic_stream([])[:3],
                                  sse({"type": "error", "error": {"type": "overloaded_error",
                                                                  "message": "Overloaded"}},
                                      "error")])] * 6, ""),
    ],
    ids=["401", "404", "empty-answer", "dropped-mid-stream", "error-event-after-200"],
)
def test_provider_failures_exit_4_and_leave_stores_byte_identical(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, provider: str, steps: list[Step],
    message: str,
) -> None:
    before = _seed(env)
    with FakeServer() as server:
        _use(monkeypatch, server, provider)
        monkeypatch.setenv("MEMCLI_TIMEOUT", "5")
        server.script(*steps)
        result = _invoke("extract", "--apply", input=TURN_WITH_SECRET)
    assert result.exit_code == 4, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert _stores(env) == before


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([json_step(429, {"error": {"message": "slow down"}}, {"Retry-After": "0"})] * 4,
         "4 attempts"),
        # A silence uses up the deadline (the timeout of the whole exchange): no retry.
        ([Step(body=openai_stream(['{"operations": '])[:2], stall=3)], "within the 0.5 s"),
    ],
    ids=["429-until-the-attempts-run-out", "read-timeout"],
)
def test_retries_that_run_out_exit_4_and_leave_stores_byte_identical(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, steps: list[Step], message: str,
) -> None:
    before = _seed(env)
    with FakeServer() as server, stamina.set_testing(True, attempts=4):
        _use(monkeypatch, server)
        monkeypatch.setenv("MEMCLI_TIMEOUT", "0.5")
        server.script(*steps)
        result = _invoke("extract", "--apply", input=TURN_WITH_SECRET)
    assert result.exit_code == 4, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    assert message in result.stderr
    assert len(server.requests) == len(steps)
    assert _stores(env) == before


def test_500_then_success_applies_once(env: dict[str, str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeServer() as server, stamina.set_testing(True, attempts=4):
        _use(monkeypatch, server)
        server.script(json_step(500, {"error": {"message": "boom"}}),
                      Step(body=openai_stream([_reply([_op()])])))
        result = _invoke("extract", "--apply", input=TURN_WITH_SECRET)
    assert result.exit_code == 0, result.output
    assert len(server.requests) == 2
    assert (Path(env["MEMCLI_PROJECT_STORE"]) / "project_knowledge_test-command.md").exists()


def test_connection_refused_is_one_line_exit_4_as_a_subprocess(env: dict[str, str]) -> None:
    with FakeServer() as server:
        url = server.url  # the port is closed once the server stops
    run_env = {**os.environ, **env, "MEMCLI_PROVIDER": "openai",
               "MEMCLI_BASE_URL": url + "/v1", "MEMCLI_MODEL": "m"}
    done = subprocess.run([sys.executable, "-m", "memcli", "extract", "--apply"],
                          input=TURN_WITH_SECRET, capture_output=True, text=True, env=run_env,
                          timeout=120, check=False)
    assert done.returncode == 4, done.stderr
    assert done.stderr.startswith("memcli: error:")
    assert done.stderr.count("\n") == 1
    assert done.stdout == ""
    assert _stores(env) == {}


def test_anthropic_streams_and_applies(env: dict[str, str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeServer() as server:
        _use(monkeypatch, server, "anthropic")
        # The request prefills '{"operations": [', so the model answers the continuation.
        text = _reply([_op()]).removeprefix('{"operations": [')
        server.script(Step(body=anthropic_stream([text[:20], text[20:]])))
        result = _invoke("extract", "--apply", "--json", input=TURN_WITH_SECRET)
    assert result.exit_code == 0, result.output
    request = server.requests[0]
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == "sk-test-key-not-secret"
    assert GITHUB_TOKEN not in request.body.decode()
    assert (Path(env["MEMCLI_PROJECT_STORE"]) / "project_knowledge_test-command.md").exists()


def test_a_wrong_format_flag_says_so(env: dict[str, str]) -> None:
    # `--format openai` on a Claude Code log said "none a known transcript record" and sent
    # the person to the list of formats, when the flag was the mistake.
    claude = ('{"type": "user", "uuid": "a", "parentUuid": null, "sessionId": "s", '
              '"message": {"role": "user", "content": "we use pnpm"}}\n')
    result = _invoke("extract", "--format", "openai", input=claude)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("memcli: error: no openai messages found: 1 line")
    assert result.stderr.endswith("without --format memcli detects the format itself\n")
    assert result.stderr.count("\n") == 1
    assert _invoke("extract", input=claude).exit_code == 0  # detected, it is read


@pytest.mark.parametrize("review", ["", "user_preference"])
def test_a_note_edited_by_hand_while_the_model_answers_is_not_written_over(
    env: dict[str, str], monkeypatch: pytest.MonkeyPatch, review: str
) -> None:
    """The note is edited by hand after the stores were read and before the model's reply
    arrives (the fake server edits it, then answers): the model's update of it was made
    without that edit, so the guard refuses it in one line naming the note (exit 1, as for
    any refusal), the hand edit stands, and the model is asked once; with review on (for
    another type), the update waits in the inbox instead. Before, the update was applied
    ("1 applied", exit 0) and the hand edit was gone."""
    if review:
        monkeypatch.setenv("MEMCLI_REVIEW", review)
    _invoke("add", "--type", "project_knowledge", "--title", "Deploy", "Deploy with `make ship`.")
    note = Path(env["MEMCLI_PROJECT_STORE"]) / "project_knowledge_deploy.md"
    update = {"action": "update", "level": "project", "filename": note.name,
              "content": "Deploy with `make ship` from main; ask before a deploy."}

    def edit_by_hand_then_answer(request: Any) -> Step:
        note.write_text(note.read_text("utf-8") + "\nAsk Dana before a Friday deploy.\n",
                        "utf-8")
        return Step(body=openai_stream([_reply([update])]))

    with FakeServer() as server:
        _use(monkeypatch, server)
        server.respond(edit_by_hand_then_answer)
        result = _invoke("extract", "--apply", input=TURN_WITH_SECRET)
        asked = len(server.requests)
    assert asked == 1
    if review:
        assert "waits for review" in result.output, result.output
        assert "project/project_knowledge_deploy.md changed after the turn was read" in (
            result.output)
    else:
        assert result.exit_code == 1, result.output
        assert "project/project_knowledge_deploy.md changed after the turn was read" in (
            result.stderr)
    text = note.read_text("utf-8")
    assert "Ask Dana before a Friday deploy." in text and "from main" not in text
