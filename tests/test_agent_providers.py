"""The agent CLIs and a local server as extractors, against real stand-ins.

Each agent CLI is a real executable on PATH written by the test (tests/agentstandin.py)
that prints the documented output shape; Ollama is a real HTTP server on 127.0.0.1
(tests/fakeserver.py). Nothing of memcli is patched.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from agentstandin import EXECUTABLES, calls, environment, install
from conftest import MemEnv
from fakeserver import JSON_HEADERS, SSE_HEADERS, FakeServer, Request, Step, openai_stream

TURN = "\n".join(json.dumps(line) for line in (
    {"type": "user", "message": {"role": "user", "content":
                                 "No, use uv instead of pip in this repo. The test command "
                                 "is `uv run pytest -q`."}},
    {"type": "assistant", "message": {"role": "assistant", "content": "Understood."}},
)) + "\n"
AGENTS = tuple(EXECUTABLES)
KEYS = ("MEMCLI_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "MEMCLI_PROVIDER",
        "MEMCLI_BASE_URL", "MEMCLI_MODEL")


@pytest.fixture
def agents(memenv: MemEnv, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Every stand-in in tmp_path/bin; no API key in the environment."""
    for name in KEYS:
        monkeypatch.delenv(name, raising=False)
    folder = tmp_path / "bin"
    for kind in AGENTS:
        install(folder, kind)
    return folder


def extract(memenv: MemEnv, folder: Path, provider: str, mode: str = "good",
            *flags: str, reply: Any = None) -> Any:
    env = environment(folder, memenv.root / "calls.jsonl", mode, reply)
    return memenv.invoke("extract", "--provider", provider, *flags, input=TURN, env=env)


def titles(document: str) -> list[str]:
    return [op["title"] for op in json.loads(document)["operations"]]


# --------------------------------------------------------------------------- each CLI

EXPECTED_ARGV = {
    "claude-code": ["-p", "--output-format", "json", "--model", "haiku", "--tools", "",
                    "--strict-mcp-config", "--max-turns", "1"],
    "codex": ["exec", "--json", "--sandbox", "read-only", "--skip-git-repo-check",
              "--ephemeral", "-"],
    "gemini": ["-p", "--output-format", "json", "--model", "gemini-2.5-flash"],
    "copilot": ["-p", "--output-format", "json", "--no-ask-user", "--deny-tool", "shell",
                "--deny-tool", "write"],
}


@pytest.mark.parametrize("provider", AGENTS)
def test_a_good_reply_becomes_the_operations(memenv: MemEnv, agents: Path,
                                             provider: str) -> None:
    done = extract(memenv, agents, provider)
    assert done.exit_code == 0, done.stderr
    assert titles(done.stdout) == ["Tests run with uv"]
    [call] = calls(memenv.root / "calls.jsonl")
    argv = call["argv"]
    assert isinstance(argv, list)
    # The documented headless flags, the small model where there is one, no tools.
    for flag in EXPECTED_ARGV[provider]:
        assert flag in argv, (flag, argv)
    if provider == "claude-code":
        assert argv[argv.index("--tools") + 1] == ""
    # The prompt, with the turn in it: on stdin, or as Copilot CLI's -p argument.
    prompt = argv[argv.index("-p") + 1] if provider == "copilot" else call["stdin"]
    assert isinstance(prompt, str) and "uv run pytest -q" in prompt
    assert "Answer with one JSON object" in prompt
    # The child is marked, so that its own hooks do nothing.
    assert call["marker"] == "1"


@pytest.mark.parametrize("provider", AGENTS)
def test_a_fenced_reply_is_read_by_the_tolerant_parser(memenv: MemEnv, agents: Path,
                                                        provider: str) -> None:
    done = extract(memenv, agents, provider, "fenced")
    assert done.exit_code == 0, done.stderr
    assert titles(done.stdout) == ["Tests run with uv"]


@pytest.mark.parametrize("provider", AGENTS)
@pytest.mark.parametrize(("mode", "words"), [
    ("auth", "is not signed in"),
    ("rate", "is rate-limited"),
    ("quota", "usage quota is spent"),
    ("garbage", "printed no"),
])
def test_each_failure_is_one_line_and_exit_4(memenv: MemEnv, agents: Path, provider: str,
                                             mode: str, words: str) -> None:
    done = extract(memenv, agents, provider, mode)
    assert done.exit_code == 4
    assert done.stdout == ""
    assert done.stderr.startswith("memcli: error: ") and done.stderr.count("\n") == 1
    assert words in done.stderr, done.stderr
    assert memenv.notes("project") == []


def test_a_cli_that_is_not_installed_is_named(memenv: MemEnv, agents: Path,
                                              tmp_path: Path) -> None:
    env = {"PATH": str(tmp_path / "empty"), "STANDIN_LOG": str(tmp_path / "log")}
    done = memenv.invoke("extract", "--provider", "codex", input=TURN, env=env)
    assert done.exit_code == 4
    assert "Codex CLI is not installed: `codex` is not on PATH" in done.stderr


@pytest.mark.parametrize("provider", ["claude-code", "gemini"])
def test_a_cli_past_the_timeout_is_stopped(memenv: MemEnv, agents: Path,
                                           provider: str) -> None:
    done = memenv.run("extract", "--provider", provider, "--timeout", "1", input=TURN,
                      env=environment(agents, memenv.root / "calls.jsonl", "slow"))
    assert done.returncode == 4
    assert "gave no answer within the 1 s timeout" in done.stderr
    assert done.stderr.count("\n") == 1
    # The CLI was stopped, and whatever it started with it (its process group).
    [call] = calls(memenv.root / "calls.jsonl")
    pid = call["pid"]
    assert isinstance(pid, int) and not _running(pid)
    assert not any(_running(int(p.name)) and _group_of(int(p.name)) == pid
                   for p in Path("/proc").iterdir() if p.name.isdigit())


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _group_of(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def test_a_prompt_too_long_for_copilot_s_argument_is_refused(memenv: MemEnv,
                                                             agents: Path) -> None:
    # 50,000 Chinese characters fit the transcript budget, and are 150,000 bytes: more than
    # one argument may hold (128 KiB), and Copilot CLI takes its prompt only as one.
    turn = json.dumps({"type": "user", "message": {"role": "user", "content": "记" * 50_000}})
    env = environment(agents, memenv.root / "calls.jsonl")
    done = memenv.invoke("extract", "--provider", "copilot", input=turn + "\n", env=env)
    assert done.exit_code == 4
    assert "more than GitHub Copilot CLI takes in its -p argument" in done.stderr
    assert calls(memenv.root / "calls.jsonl") == []


def test_verbose_reports_the_model_time_tokens_and_cost(memenv: MemEnv,
                                                        agents: Path) -> None:
    done = extract(memenv, agents, "claude-code", "good", "--verbose")
    assert done.exit_code == 0, done.stderr
    assert "claude-code: claude-haiku-4-5-20251001:" in done.stderr
    # The cache reads count as input: 1,500 + 200.
    assert "1700 input tokens, 90 output tokens, $0.0022, 1 attempt\n" in done.stderr


def test_the_model_flag_reaches_the_cli(memenv: MemEnv, agents: Path) -> None:
    done = extract(memenv, agents, "codex", "good", "--model", "gpt-5-mini")
    assert done.exit_code == 0, done.stderr
    [call] = calls(memenv.root / "calls.jsonl")
    argv = call["argv"]
    assert isinstance(argv, list) and argv[argv.index("-m") + 1] == "gpt-5-mini"


def test_the_reply_is_applied_like_any_model_s(memenv: MemEnv, agents: Path) -> None:
    done = extract(memenv, agents, "gemini", "good", "--apply")
    assert done.exit_code == 0, done.stderr
    assert memenv.notes("project") == ["project_knowledge_tests-run-with-uv.md"]


# --------------------------------------------------------------------------- ollama


def _models_then_chat(request: Request) -> Step:
    if request.method == "GET" and request.path == "/v1/models":
        return Step(headers=JSON_HEADERS, framing="length", body=[json.dumps(
            {"object": "list", "data": [{"id": "qwen2.5:3b", "object": "model"},
                                        {"id": "llama3.2", "object": "model"}]}).encode()])
    reply = json.dumps({"operations": [{
        "action": "create", "level": "user", "type": "user_preference",
        "title": "Answers in English", "summary": "The person wants answers in English.",
        "content": "Answer in English.", "reason": "said"}]})
    return Step(headers=SSE_HEADERS, body=openai_stream([reply], model="qwen2.5:3b"))


def test_ollama_without_a_model_uses_the_first_the_server_lists(memenv: MemEnv,
                                                                agents: Path) -> None:
    with FakeServer() as server:
        server.respond(_models_then_chat)
        done = memenv.invoke("extract", "--provider", "ollama", "--base-url",
                             server.url + "/v1", input=TURN)
    assert done.exit_code == 0, done.stderr
    assert titles(done.stdout) == ["Answers in English"]
    chat = [r for r in server.requests if r.method == "POST"]
    assert [r.path for r in chat] == ["/v1/chat/completions"]
    assert chat[0].json()["model"] == "qwen2.5:3b"
    assert "authorization" not in chat[0].headers


def test_ollama_that_is_not_running_is_one_line(memenv: MemEnv, agents: Path) -> None:
    with FakeServer() as server:
        url = server.url
    done = memenv.invoke("extract", "--provider", "ollama", "--base-url", url + "/v1",
                         input=TURN)
    assert done.exit_code == 4
    assert "is the server running?" in done.stderr and done.stderr.count("\n") == 1


# --------------------------------------------------------------------------- auto


def _auto(memenv: MemEnv, env: dict[str, str], *flags: str) -> Any:
    return memenv.invoke("extract", "--provider", "auto", "--verbose", *flags, input=TURN,
                         env=env)


def test_auto_takes_an_api_key_first(memenv: MemEnv, agents: Path) -> None:
    env = {**environment(agents, memenv.root / "calls.jsonl"), "ANTHROPIC_API_KEY": "sk-x",
           "MEMCLI_PROVIDER": "auto"}
    shown = memenv.invoke("config", "--json", env=env)
    assert json.loads(shown.stdout)["auto_chooses"] == {
        "value": "anthropic", "source": "ANTHROPIC_API_KEY is set"}


def test_auto_takes_the_hooking_agent_s_cli_next(memenv: MemEnv, agents: Path) -> None:
    env = environment(agents, memenv.root / "calls.jsonl")
    done = _auto(memenv, env, "--agent", "gemini")
    assert done.exit_code == 0, done.stderr
    assert "provider auto chose gemini: the Gemini CLI hook runs it" in done.stderr
    assert [c["kind"] for c in calls(memenv.root / "calls.jsonl")] == ["gemini"]
    assert titles(done.stdout) == ["Tests run with uv"]


def test_auto_takes_a_local_server_that_answers_then(memenv: MemEnv, agents: Path,
                                                     tmp_path: Path) -> None:
    with FakeServer() as server:
        server.respond(_models_then_chat)
        # The hooking agent's CLI is not installed: the configured local server is next.
        env = {"PATH": str(tmp_path / "empty"), "MEMCLI_BASE_URL": server.url + "/v1"}
        done = _auto(memenv, env, "--agent", "codex")
    assert done.exit_code == 0, done.stderr
    assert "provider auto chose ollama: `codex` is not on PATH; the configured server " \
           "answers" in done.stderr
    assert titles(done.stdout) == ["Answers in English"]


def test_auto_falls_back_to_the_rules(memenv: MemEnv, agents: Path, tmp_path: Path) -> None:
    with FakeServer() as server:
        url = server.url + "/v1"  # closed when the block ends: nothing answers there
    env = {"PATH": str(tmp_path / "empty"), "MEMCLI_BASE_URL": url}
    done = _auto(memenv, env)
    assert done.exit_code == 0, done.stderr
    assert "provider auto chose rules: no API key is set and no local model server " \
           "answers" in done.stderr
    shown = json.loads(memenv.invoke("config", "--json",
                                     env={**env, "MEMCLI_PROVIDER": "auto"}).stdout)
    assert shown["auto_chooses"]["value"] == "rules"


# --------------------------------------------------------------------------- no loops


def _claude_project(memenv: MemEnv) -> tuple[Path, dict[str, Any]]:
    transcript = memenv.root / "session.jsonl"
    transcript.write_text(TURN, "utf-8")
    payload = {"session_id": "s1", "transcript_path": str(transcript),
               "cwd": str(memenv.repo), "hook_event_name": "Stop"}
    return transcript, payload


def test_a_marked_child_s_hooks_do_nothing(memenv: MemEnv, agents: Path) -> None:
    _, payload = _claude_project(memenv)
    env = {"MEMCLI_EXTRACTOR_CHILD": "1"}
    done = memenv.run("hook", "claude-code", input=json.dumps(payload), env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    hooks = Path(memenv.env["MEMCLI_HOME"]) / "hooks"
    assert not hooks.exists(), "a marked hook queued a job"
    # The same payload unmarked queues one: the guard, not the payload, stopped it.
    unmarked = memenv.run("hook", "claude-code", input=json.dumps(payload),
                          env={"PATH": str(Path(sys.executable).parent) + os.pathsep
                               + os.environ["PATH"], "MEMCLI_PROVIDER": "rules"})
    assert unmarked.returncode == 0
    assert list(hooks.rglob("*.json")) or "queued" in (
        Path(memenv.env["MEMCLI_HOME"]) / "logs" / "hook.log").read_text("utf-8")


def test_a_cli_that_fires_memcli_s_hook_does_not_recurse(memenv: MemEnv, agents: Path) -> None:
    """The stand-in runs `memcli hook claude-code` on a Stop payload, the way `claude -p`
    fires the person's hooks: the hook must neither queue a job nor start anything."""
    _, payload = _claude_project(memenv)
    env = {**environment(agents, memenv.root / "calls.jsonl", "hook"),
           "STANDIN_HOOK": f"{sys.executable} -m memcli hook claude-code",
           "STANDIN_HOOK_PAYLOAD": json.dumps(payload)}
    done = memenv.run("extract", "--provider", "claude-code", input=TURN, env=env)
    assert done.returncode == 0, done.stderr
    assert titles(done.stdout) == ["Tests run with uv"]
    assert len(calls(memenv.root / "calls.jsonl")) == 1  # one call, no second extraction
    assert not (Path(memenv.env["MEMCLI_HOME"]) / "hooks").exists()


# --------------------------------------------------------------------------- the harness


def test_the_quality_harness_scores_an_agent_cli_with_its_cost(memenv: MemEnv, agents: Path,
                                                               tmp_path: Path) -> None:
    """benchmarks/extraction.py --provider: the stand-in answers one fixed note to every
    turn, so the figures are the harness's arithmetic, not a model's quality."""
    import subprocess

    script = Path(__file__).resolve().parents[1] / "benchmarks" / "extraction.py"
    log = tmp_path / "harness.jsonl"
    env = {**os.environ, **environment(agents, log)}
    done = subprocess.run([sys.executable, str(script), "--provider", "claude-code",
                           "--split", "test", "--limit", "3", "--json"],
                          capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    figures = report["provider"]
    made = len(calls(log))  # the 3 turns, and the turns of the correction sequences
    assert figures["turns"] == 3 and figures["failed_turns"] == 0 and made >= 3
    assert figures["turns_with_cost"] == made
    assert figures["cost_usd"] == pytest.approx(0.00217 * made)
    assert figures["input_tokens"] == 1700 * made
    scores = report["test"]["claude-code"]["languages"]["all"]
    assert scores["turns"] == 3 and scores["ops"] == 3  # one note a turn, as answered
