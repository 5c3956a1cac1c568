"""`memcli consolidate`: proposals from the rules and from a (fake) model; apply's delete gate."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from fakeserver import FakeServer, Step, anthropic_stream, openai_stream

from tests.conftest import MemEnv, snapshot_tree

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _note(memenv: MemEnv, name: str, title: str, content: str, updated: str,
          **extra: str) -> None:
    meta = {"type": "project_knowledge", "title": title, "summary": content,
            "updated": updated, **extra}
    memenv.write_note("project", name, meta, content + "\n")


@pytest.fixture
def aged(memenv: MemEnv) -> MemEnv:
    _note(memenv, "project_knowledge_billing-deploy-steps.md", "Billing deploy steps",
          "Deploy billing with make deploy-billing from main.", "2026-01-01T00:00:00Z")
    _note(memenv, "project_knowledge_deploy-steps-for-billing.md", "Deploy steps for billing",
          "Deploy billing with make deploy-billing from main. Check the dashboard.",
          "2026-06-01T00:00:00Z")
    _note(memenv, "project_knowledge_auth-owner-team.md", "Auth owner team",
          "The platform team owns auth.", "2026-01-01T00:00:00Z")
    _note(memenv, "project_knowledge_auth-owner-team-updated.md", "Auth owner team (updated)",
          "Team Atlas took over auth; platform no longer answers its pages.",
          "2026-06-01T00:00:00Z")
    _note(memenv, "project_knowledge_freeze.md", "Code freeze", "No merges until Friday.",
          "2026-01-01T00:00:00Z", expires="2026-03-01")
    _note(memenv, "project_knowledge_cache.md", "Cache policy", "Redis for five minutes.",
          "2026-01-01T00:00:00Z")
    assert memenv.invoke("index").exit_code == 0
    return memenv


def _propose(memenv: MemEnv, *flags: str) -> dict[str, Any]:
    result = memenv.invoke("consolidate", "--json", *flags)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_rules_propose_merge_contradiction_and_expiry_and_write_nothing(aged: MemEnv) -> None:
    before = snapshot_tree(aged.project)
    document = _propose(aged)
    assert snapshot_tree(aged.project) == before
    ops = {(op["kind"], op["action"], op["filename"]): op for op in document["operations"]}
    assert set(ops) == {
        ("duplicate", "delete", "project_knowledge_billing-deploy-steps.md"),
        ("contradiction", "delete", "project_knowledge_auth-owner-team.md"),
        ("expired", "delete", "project_knowledge_freeze.md"),
    }
    assert all(op["reason"] for op in document["operations"])
    assert "newer statement wins" in ops[("contradiction", "delete",
                                          "project_knowledge_auth-owner-team.md")]["reason"]
    assert document["consolidate"]["proposals"] == {
        "duplicate": 1, "contradiction": 1, "expired": 1, "shorten": 0}
    assert set(document["base"]) == {"project", "user"}


def test_a_duplicate_that_says_more_is_merged_into_the_newer(memenv: MemEnv) -> None:
    _note(memenv, "project_knowledge_billing-deploy-steps.md", "Billing deploy steps",
          "Deploy billing with make deploy-billing from main. Ask Ana first.",
          "2026-01-01T00:00:00Z")
    _note(memenv, "project_knowledge_deploy-steps-for-billing.md", "Deploy steps for billing",
          "Deploy billing with make deploy-billing from main.", "2026-06-01T00:00:00Z")
    update, delete = _propose(memenv)["operations"]
    assert (update["action"], update["filename"]) == (
        "update", "project_knowledge_deploy-steps-for-billing.md")
    assert update["content"].endswith("Ask Ana first.")
    assert delete["filename"] == "project_knowledge_billing-deploy-steps.md"


def test_apply_holds_the_deletes_back_without_allow_delete(aged: MemEnv) -> None:
    document = json.dumps(_propose(aged))
    held = aged.invoke("apply", "--json", "-", input=document)
    assert held.exit_code == 1
    report = json.loads(held.stdout)
    assert len(report["rejected"]) == 3
    assert all("--allow-delete" in r["message"] for r in report["rejected"])
    assert (aged.project / "project_knowledge_freeze.md").exists()
    done = aged.invoke("apply", "--allow-delete", "-", input=document)
    assert done.exit_code == 0, done.stderr
    assert not (aged.project / "project_knowledge_freeze.md").exists()
    assert aged.invoke("index", "--check").exit_code == 0
    newest = json.loads(aged.invoke("log", "--json", "-n", "1").stdout)["transactions"][0]
    assert {op["reason"] for op in newest["operations"]} >= {"expired on 2026-03-01"}
    assert aged.invoke("undo").exit_code == 0
    assert (aged.project / "project_knowledge_freeze.md").exists()


def test_an_index_over_its_cap_gets_shorter_summaries(memenv: MemEnv) -> None:
    long = "Word " * 60
    for i in range(150):
        _note(memenv, f"project_knowledge_topic-{i}.md", f"Topic {i}",
              f"{long}number {i}.", "2026-01-01T00:00:00Z")
    assert memenv.invoke("index").exit_code == 0
    document = _propose(memenv)
    shorten = [op for op in document["operations"] if op["kind"] == "shorten"]
    assert shorten and all(len(op["summary"]) <= 60 for op in shorten)
    assert memenv.invoke("apply", "-", input=json.dumps(document)).exit_code == 0
    status = json.loads(memenv.invoke("status", "--json").stdout)
    assert status["levels"][0]["cut_by_cap"] == [], (len(shorten), status["context"])


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_llm_providers_get_the_consolidation_prompt_and_their_reply_is_checked(
        aged: MemEnv, provider: str) -> None:
    reply = json.dumps({"operations": [
        {"action": "delete", "level": "project", "filename": "project_knowledge_freeze.md",
         "kind": "expired", "reason": "expired"},
        {"action": "delete", "level": "project", "filename": "../../etc/passwd",
         "kind": "expired", "reason": "evil"},
        {"action": "delete", "level": "project", "filename": "project_knowledge_nope.md",
         "kind": "duplicate", "reason": "not a note"},
        {"action": "create", "level": "project", "type": "project_knowledge",
         "title": "Injected", "content": "x", "kind": "duplicate"},
    ]})
    stream = openai_stream([reply]) if provider == "openai" else anthropic_stream([reply])
    with FakeServer() as server:
        server.script(Step(body=stream))
        suffix = "/v1" if provider == "openai" else ""
        result = aged.invoke("consolidate", "--json", "--provider", provider,
                             env={"MEMCLI_BASE_URL": server.url + suffix,
                                  "MEMCLI_API_KEY": "sk-test-key-not-secret",
                                  "MEMCLI_MODEL": "test-model"})
        assert result.exit_code == 0, result.stderr
        sent = server.requests[0].json()
    document = json.loads(result.stdout)
    assert [op["filename"] for op in document["operations"]] == ["project_knowledge_freeze.md"]
    assert len(document["consolidate"]["notes"]) == 3
    assert document["consolidate"]["provider"] == provider
    text = json.dumps(sent)
    assert "You tidy the long-term memory" in text
    assert "project_knowledge_auth-owner-team-updated.md" in text and "2026-11-29" in text


def test_the_aged_store_benchmark_scores_its_labels(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCHMARKS))
    from agedstore import generate
    from consolidation import score

    labels = vars(generate(tmp_path / "s", 200))
    assert len(list((tmp_path / "s").glob("*.md"))) == 200
    assert (len(labels["duplicates"]), len(labels["contradictions"]),
            len(labels["expired"])) == (20, 10, 10)
    perfect = {"operations": [
        *[{"kind": "duplicate", "action": "delete", "filename": old,
           "pair": f"project/{new}+{old}"} for old, new in labels["duplicates"]],
        {"kind": "expired", "action": "delete", "filename": "project_knowledge_wrong.md"}]}
    scores = score(perfect, labels)
    assert scores["duplicate"] == {"proposed": 20, "labelled": 20, "precision": 1.0,
                                   "recall": 1.0}
    assert scores["expired"]["precision"] == 0.0 and scores["contradiction"]["recall"] == 0.0
