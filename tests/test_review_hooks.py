"""The review inbox behind a real hook: the Stop hook's job, `review` set in [hooks]."""

from __future__ import annotations

import json
import subprocess
import sys

from fakeserver import FakeServer, Step, openai_stream
from test_hooks import DEADLINE, Agent, agent, claude_transcript, stop_payload, transcript_for

from memcli.store.names import inbox_folder

__all__ = ["agent"]  # the fixture, used by name

DEPLOY = ("The deploy goes through the staging cluster first, then production after the "
          "smoke tests pass; rollbacks use the previous image tag and never rebuild.")


def test_the_hook_holds_a_delete_for_review_and_writes_the_rest(agent: Agent) -> None:
    (agent.repo / ".memcli" / "config.toml").write_text('[hooks]\nreview = "user_preference"\n')
    added = subprocess.run([sys.executable, "-m", "memcli", "add", "--level", "project",
                            "--title", "Deploy", DEPLOY], cwd=agent.repo, env=agent.env,
                           capture_output=True, text=True, check=False)
    assert added.returncode == 0, added.stderr
    reply = json.dumps({"operations": [
        {"action": "delete", "level": "project", "filename": "project_knowledge_deploy.md",
         "reason": "the user said the deploy notes are obsolete"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Test command", "content": "Run `make check` before committing."}]})
    transcript = claude_transcript(transcript_for(agent, "s1"), "s1", [
        ("Forget the deploy notes; run make check before committing.", "Noted.")], agent.repo)
    with FakeServer() as server:
        server.script(Step(body=openai_stream([reply])))
        agent.env.update({"MEMCLI_PROVIDER": "openai", "MEMCLI_MODEL": "x",
                          "MEMCLI_BASE_URL": server.url + "/v1"})
        assert agent.hook(stop_payload(agent, "s1", transcript, "Noted.")).returncode == 0
        agent.wait_for_workers(finished_jobs=1)
    assert agent.notes() == ["project_knowledge_deploy.md", "project_knowledge_test-command.md"]
    held = [json.loads(p.read_text()) for p in inbox_folder(agent.project_store).glob("*.json")]
    assert len(held) == 1, agent.log_text()
    assert held[0]["operations"][0]["action"] == "delete"
    assert held[0]["source"]["via"] == "hook" and held[0]["source"]["session"] == "s1"
    assert "Forget the deploy notes" in held[0]["evidence"]

    def memcli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "memcli", *args], cwd=agent.repo,
                              env=agent.env, capture_output=True, text=True, check=False,
                              timeout=DEADLINE)

    start = subprocess.run(
        [sys.executable, "-m", "memcli", "hook", "claude-code"], cwd=agent.repo, env=agent.env,
        input=json.dumps({"hook_event_name": "SessionStart", "session_id": "s2",
                          "cwd": str(agent.repo)}), capture_output=True, text=True,
        check=False, timeout=DEADLINE)
    assert "1 memory awaits the person's review" in start.stdout
    accepted = memcli("review", "--accept", "--all")
    assert accepted.returncode == 0, accepted.stderr
    assert agent.notes() == ["project_knowledge_test-command.md"]
    log = json.loads(memcli("log", "--json").stdout)["transactions"]
    assert log[0]["command"] == "review"
    assert log[0]["source"]["via"] == "hook" and log[0]["source"]["session"] == "s1"
