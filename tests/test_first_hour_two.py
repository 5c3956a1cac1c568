"""The first hour, part two (issue 34): repeating a step, long `add` text, finding notes,
sync conflicts, and the small answers a newcomer gets."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TURN = (ROOT / "examples" / "turn.jsonl").read_text("utf-8")

# --------------------------------------------------------------------------- repeating a step


def test_applying_the_same_document_again_is_unchanged_and_exit_0(memenv: Any) -> None:
    extracted = memenv.call("extract", input=TURN)
    assert extracted.returncode == 0, extracted.stderr
    ops = memenv.root / "ops.json"
    ops.write_text(extracted.stdout, "utf-8")
    first = memenv.call("apply", str(ops))
    assert first.returncode == 0, first.stderr
    files = {p: p.read_bytes() for p in memenv.root.rglob("*.md")}
    again = memenv.call("apply", str(ops))
    assert again.returncode == 0, again.stderr
    assert "rejected" not in again.stderr and "stale base" not in again.stderr, again.stderr
    assert again.stdout.count("already says this") == 4, again.stdout
    assert again.stderr.strip().endswith("4 unchanged; 0 files; nothing written")
    assert {p: p.read_bytes() for p in memenv.root.rglob("*.md")} == files
    # --on-conflict rename makes no "-2" copy of a note that already says it.
    renamed = memenv.call("apply", "--on-conflict", "rename", str(ops))
    assert renamed.returncode == 0 and "unchanged" in renamed.stderr, renamed.stderr
    assert {p: p.read_bytes() for p in memenv.root.rglob("*.md")} == files
    # extract --apply of the same turn says the same, with the same status.
    applied = memenv.call("extract", "--apply", input=TURN)
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout.count("already says this") == 4, applied.stdout


def test_a_create_that_differs_from_the_note_is_still_a_conflict(memenv: Any) -> None:
    op = {"action": "create", "level": "project", "type": "project_knowledge",
          "title": "Test command", "content": "Run make test."}
    assert memenv.apply([op]).exit_code == 0
    changed = memenv.call("apply", "-", input=json.dumps([dict(op, content="Run tox.")]))
    assert changed.returncode == 1
    assert "duplicate" in changed.stderr


# --------------------------------------------------------------------------- finding notes


def _complete(memenv: Any, words: str) -> list[str]:
    import subprocess
    import sys

    parts = words.split(" ")
    done = subprocess.run([sys.executable, "-m", "memcli"], capture_output=True, text=True,
                          cwd=memenv.repo, timeout=60, check=False,
                          env={**os.environ, **memenv.env,
                               "_MEMCLI_COMPLETE": "complete_bash", "COMP_WORDS": words,
                               "COMP_CWORD": str(len(parts) - 1)})
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_note_without_frontmatter_is_found_by_its_heading(memenv: Any) -> None:
    assert memenv.invoke("add", "Run make test before a commit.").exit_code == 0
    (memenv.project / "project_knowledge_deploy-steps.md").write_text(
        "# Deploy steps\n\nRun deploy.sh, then tag.\n", "utf-8")
    shown = memenv.invoke("show", "Deploy steps")
    assert shown.exit_code == 0, shown.stderr
    assert "Run deploy.sh" in shown.stdout


def test_a_typo_gets_did_you_mean_in_show_rm_and_log(memenv: Any) -> None:
    assert memenv.invoke("add", "Run make test before a commit.", "--title",
                         "Test command").exit_code == 0
    for args in (["show", "Test comand"], ["rm", "--yes", "Tset command"],
                 ["log", "test comand"]):
        done = memenv.invoke(*args)
        assert done.exit_code == 1, (args, done.output)
        assert "did you mean 'Test command'?" in done.stderr, (args, done.stderr)
    # A part of one note's title names it as a guess, never as a match.
    part = memenv.invoke("show", "command")
    assert part.exit_code == 1 and "did you mean 'Test command'?" in part.stderr
    assert memenv.notes("project") == ["project_knowledge_test-command.md"]
    unrelated = memenv.invoke("show", "kubernetes")
    assert unrelated.exit_code == 1 and "did you mean" not in unrelated.stderr


def test_note_names_and_titles_complete_after_show_rm_and_log(memenv: Any) -> None:
    for text in ("Use pnpm, not npm.", "Run make test before a commit."):
        assert memenv.invoke("add", text).exit_code == 0
    names = ["project/project_knowledge_run-make-test-before-a-commit.md",
             "project/project_knowledge_use-pnpm-not-npm.md"]
    for command in ("show", "rm", "log"):
        assert _complete(memenv, f"memcli {command} ") == names, command
        assert _complete(memenv, f"memcli {command} project_knowledge_u") == [
            "project_knowledge_use-pnpm-not-npm.md"], command
        assert _complete(memenv, f"memcli {command} Use") == ["Use pnpm, not npm"], command


# --------------------------------------------------------------------------- small things


def test_trust_refuses_a_config_with_an_unknown_provider(memenv: Any) -> None:
    config = memenv.repo / ".memcli" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('[extract]\nprovider = "opneai"\n', "utf-8")
    refused = memenv.invoke("trust")
    assert refused.exit_code == 2
    assert "provider = 'opneai'" in refused.stderr and "nothing was trusted" in refused.stderr
    assert memenv.invoke("trust", "--list", "--json").stdout.strip() == "[]"
    config.write_text('[extract]\nprovider = "openai"\n', "utf-8")
    assert memenv.invoke("trust").exit_code == 0


def test_extract_does_not_count_zero_broken_lines(memenv: Any) -> None:
    done = memenv.call("extract", input=TURN)
    assert done.returncode == 0, done.stderr
    assert "skipped 1 record that is not a message\n" in done.stderr
    assert "0 broken" not in done.stderr
    broken = memenv.call("extract", input=TURN + "{not json\n")
    assert "skipped 1 record that is not a message and 1 broken line\n" in broken.stderr


# --------------------------------------------------------------------------- agents' switches


def _status(memenv: Any, agent: str, scope: str = "project") -> dict[str, Any]:
    done = memenv.invoke("hooks", "status", "--json")
    assert done.exit_code == 0, done.stderr
    [row] = [r for r in json.loads(done.stdout)["agents"]
             if r["agent"] == agent and r["scope"] == scope]
    return dict(row)


def test_codex_hooks_turned_off_by_its_feature_switch_are_wired_but_disabled(
        memenv: Any) -> None:
    config = Path(memenv.env["HOME"]) / ".codex" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text('model = "o4"\n\n[features]\nhooks = false\n', "utf-8")
    installed = memenv.invoke("hooks", "install", "--agent", "codex")
    assert installed.exit_code == 0, installed.stderr
    assert f"Codex will not run them yet: [features] hooks = false in {config}" \
        in installed.stderr
    assert "`codex features enable hooks`" in installed.stderr
    assert "[features] codex_hooks = true" in installed.stderr  # older Codex versions
    assert config.read_text("utf-8").endswith("hooks = false\n")  # a person's TOML: untouched
    row = _status(memenv, "codex")
    assert row["wired"] and "hooks = false" in row["disabled"]
    text = memenv.invoke("hooks", "status").stdout
    assert "codex        project  wired but disabled: SessionStart" in text
    config.write_text('[features]\nhooks = true\n', "utf-8")
    assert _status(memenv, "codex")["disabled"] is None


def test_gemini_folder_trust_and_its_hooks_switch(memenv: Any) -> None:
    gemini = Path(memenv.env["HOME"]) / ".gemini"
    gemini.mkdir()
    (gemini / "settings.json").write_text(
        json.dumps({"security": {"folderTrust": {"enabled": True}}}), "utf-8")
    installed = memenv.invoke("hooks", "install", "--agent", "gemini")
    assert installed.exit_code == 0, installed.stderr
    assert f"Gemini CLI does not trust {memenv.repo}" in installed.stderr
    assert "trust the folder when Gemini CLI asks" in installed.stderr
    assert "does not trust" in _status(memenv, "gemini")["disabled"]
    # Trusted by a rule for the folder above it: wired, and running.
    (gemini / "trustedFolders.json").write_text(
        json.dumps({str(memenv.repo / "sub"): "TRUST_PARENT"}), "utf-8")
    assert _status(memenv, "gemini")["disabled"] is None
    # Hooks turned off in the project's own settings: install turns them on, and says so.
    project = memenv.repo / ".gemini" / "settings.json"
    document = json.loads(project.read_text("utf-8"))
    project.write_text(json.dumps({**document, "hooksConfig": {"enabled": False}}), "utf-8")
    assert "hooksConfig.enabled is false" in _status(memenv, "gemini")["disabled"]
    again = memenv.invoke("hooks", "install", "--agent", "gemini")
    assert again.exit_code == 0, again.stderr
    assert "turned Gemini CLI's hooks on" in again.stderr
    assert json.loads(project.read_text("utf-8"))["hooksConfig"] == {"enabled": True}
    assert _status(memenv, "gemini")["disabled"] is None
