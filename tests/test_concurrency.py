"""Concurrent memcli processes never lose each other's writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

WORKERS = 8
NOTES_PER_STORE = 6

pytestmark = pytest.mark.slow


def _batch(worker: int) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for i in range(NOTES_PER_STORE):
        ops.append({"action": "create", "level": "project", "type": "project_knowledge",
                    "title": f"Worker {worker} fact {i}",
                    "content": f"Fact {i} written by worker {worker}. " + "x" * 2000})
        ops.append({"action": "create", "level": "user", "type": "user_preference",
                    "title": f"Worker {worker} preference {i}",
                    "content": f"Preference {i} of worker {worker}."})
    return ops


def _start_all(memenv: Any, args_for: Any) -> list[subprocess.CompletedProcess[str]]:
    env = {**os.environ, **memenv.env}
    procs = []
    for worker in range(WORKERS):
        path: Path = memenv.root / f"ops-{worker}.json"
        path.write_text(json.dumps(_batch(worker)))
        procs.append(subprocess.Popen(
            [sys.executable, "-m", "memcli", *args_for(path)], env=env, cwd=memenv.repo,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
    return results


def _assert_consistent(memenv: Any) -> None:
    expected = {
        "project": {f"project_knowledge_worker-{w}-fact-{i}.md"
                    for w in range(WORKERS) for i in range(NOTES_PER_STORE)},
        "user": {f"user_preference_worker-{w}-preference-{i}.md"
                 for w in range(WORKERS) for i in range(NOTES_PER_STORE)},
    }
    for level, names in expected.items():
        store = memenv.store(level)
        assert set(memenv.notes(level)) == names, level
        assert not [p.name for p in store.iterdir()
                    if p.name.startswith(".") and p.name != ".memcli-history"], "lock/txn left"
        # Every writer was serialised by the lock: no two records share a sequence number.
        seqs = [int(r.name.split("-")[0]) for r in (store / ".memcli-history").glob("*.json")]
        assert seqs and len(seqs) == len(set(seqs)), level
        entries = [ln for ln in memenv.index(level).splitlines() if ln.startswith("- [")]
        assert len(entries) == len(names)
        assert {ln.rsplit(" (", 1)[1].rstrip(")") for ln in entries} == names
    check = memenv.run("index", "--check")
    assert check.returncode == 0, check.stderr


def test_eight_concurrent_applies_lose_nothing(memenv) -> None:
    results = _start_all(memenv, lambda path: ["apply", "--json", str(path)])
    for result in results:
        assert result.returncode == 0, result.stderr
        report = json.loads(result.stdout)
        assert len(report["applied"]) == 2 * NOTES_PER_STORE and not report["rejected"]
    _assert_consistent(memenv)


def test_concurrent_applies_onto_existing_stores_with_mixed_lock_sets(memenv) -> None:
    """Stores that exist already, and readers and single-store writers in the crowd."""
    seed = [{"action": "create", "level": level, "type": "reference_material",
             "title": f"Seed {level}", "content": "Seed."} for level in ("project", "user")]
    assert memenv.apply(seed).exit_code == 0
    env = {**os.environ, **memenv.env}
    others = [subprocess.Popen([sys.executable, "-m", "memcli", *args], env=env,
                               cwd=memenv.repo, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
              for args in (["show", "--level", "user", "--json"], ["context"],
                           ["index", "--level", "project"], ["show", "--json"])]
    results = _start_all(memenv, lambda path: ["apply", str(path)])
    for proc in others:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    for result in results:
        assert result.returncode == 0, result.stderr
    assert "reference_material_seed-project.md" in memenv.notes("project")
    assert "reference_material_seed-user.md" in memenv.notes("user")
    memenv.invoke("rm", "--yes", "seed project", "seed user")
    _assert_consistent(memenv)
