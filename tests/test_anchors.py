"""Anchors (`cites:`, docs/anchors.md) on a real git repository: pinned by `add --cite`,
checked by `verify`, lint, status, context and recall after the cited file is edited,
renamed, moved without git, deleted, or its lines move; `--repin`; anchors that would lead
outside the repository."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import MemEnv

APP = (
    "import os\n"
    "\n"
    "\n"
    "def parse_config(path):\n"
    "    data = open(path).read()\n"
    "    return data\n"
    "\n"
    "\n"
    "def other():\n"
    "    return 1\n"
)
DEPLOY = "#!/bin/sh\necho deploy\n"


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                           "-c", "commit.gpgsign=false", *args], cwd=repo,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.fixture
def repo(memenv: MemEnv, monkeypatch: pytest.MonkeyPatch) -> Path:
    """memenv's repository as a git work tree with two committed files."""
    home = memenv.root / "home"
    (home / ".gitconfig").write_text("")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    root = memenv.repo
    git(root, "init", "-q")
    (root / "scripts").mkdir()
    (root / "scripts" / "deploy.sh").write_text(DEPLOY)
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text(APP)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "init")
    return root


def add_cited(cli: Any, *cites: str, text: str = "Deploy with scripts/deploy.sh; it needs the VPN.",
              title: str = "Deploy workflow") -> str:
    args = [arg for cite in cites for arg in ("--cite", cite)]
    result = cli("add", *args, "--title", title, text)
    assert result.exit_code == 0, result.output
    return "project_knowledge_" + title.lower().replace(" ", "-") + ".md"


def verify_json(cli: Any, *args: str) -> tuple[int, dict[str, Any]]:
    result = cli("verify", "--json", *args)
    return result.exit_code, json.loads(result.stdout)


def states(data: dict[str, Any]) -> list[tuple[str, str]]:
    return [(a["anchor"]["path"] + (":" + a["anchor"]["lines"] if "lines" in a["anchor"] else "")
             + ("#" + a["anchor"]["symbol"] if "symbol" in a["anchor"] else ""), a["state"])
            for note in data["notes"] for a in note["anchors"]]


def cites_in(memenv: MemEnv, name: str) -> str:
    text = (memenv.project / name).read_text()
    return text.split("cites:\n", 1)[1].split("---\n", 1)[0]


# ---------------------------------------------------------------------- pinning


def test_add_cite_pins_git_blob_ids_and_line_digests(memenv: MemEnv, repo: Path,
                                                     cli: Any) -> None:
    name = add_cited(cli, "scripts/deploy.sh", "src/app.py:4-6", "src/app.py#other")
    cites = cites_in(memenv, name)
    # A whole file's digest is git's own blob id: what `git ls-files -s` already knows.
    assert f"digest: blob:{git(repo, 'rev-parse', 'HEAD:scripts/deploy.sh')}" in cites
    assert "lines: 4-6" in cites and "symbol: other" in cites
    assert f"blob: {git(repo, 'rev-parse', 'HEAD:src/app.py')}" in cites
    code, data = verify_json(cli)
    assert code == 0
    assert states(data) == [("scripts/deploy.sh", "unchanged"), ("src/app.py:4-6", "unchanged"),
                            ("src/app.py#other", "unchanged")]


def test_a_working_tree_edit_not_staged_is_seen(memenv: MemEnv, repo: Path, cli: Any) -> None:
    add_cited(cli, "scripts/deploy.sh")
    (repo / "scripts" / "deploy.sh").write_text(DEPLOY + "echo again\n")
    code, data = verify_json(cli)
    assert code == 1
    [anchor] = data["notes"][0]["anchors"]
    assert anchor["state"] == "changed"
    assert anchor["detail"] == "1 line added, 0 removed, from line 3"


def test_a_cite_of_a_missing_file_is_refused_and_nothing_written(memenv: MemEnv, repo: Path,
                                                                  cli: Any) -> None:
    result = cli("add", "--cite", "scripts/nope.sh", "Deploy with scripts/nope.sh.")
    assert result.exit_code == 1
    assert "scripts/nope.sh: no such file" in result.output
    assert memenv.notes("project") == []


@pytest.mark.parametrize("cite, why", [
    ("../outside.txt", "climbs out"), ("/etc/passwd", "absolute"), ("src\\app.py", "backslash"),
    (".git/config", "into .git"), ("src/app.py:9-3", "START <= END"),
])
def test_add_refuses_a_cite_that_leads_outside(memenv: MemEnv, repo: Path, cli: Any,
                                               cite: str, why: str) -> None:
    result = cli("add", "--cite", cite, "Some note.")
    assert result.exit_code == 2
    assert why in result.output
    assert memenv.notes("project") == []


def test_a_user_note_carries_no_anchor(memenv: MemEnv, repo: Path, cli: Any) -> None:
    result = cli("add", "--level", "user", "--cite", "src/app.py", "Some preference.")
    assert result.exit_code == 2 and "only project notes" in result.output
    code, report = memenv.apply_json([{"action": "create", "level": "user",
                                       "type": "user_preference", "title": "X",
                                       "content": "X.", "cites": ["src/app.py"]}])
    assert code == 1 and "only project notes" in report["rejected"][0]["message"]


# ---------------------------------------------------------------------- verify


def test_rename_with_git_mv_and_plain_mv_are_moves(memenv: MemEnv, repo: Path,
                                                   cli: Any) -> None:
    add_cited(cli, "scripts/deploy.sh", "src/app.py:4-6")
    git(repo, "mv", "scripts/deploy.sh", "scripts/ship.sh")
    os.rename(repo / "src" / "app.py", repo / "src" / "main.py")  # untracked at its new path
    code, data = verify_json(cli)
    assert code == 0  # moved is not stale: the content is there
    anchors = data["notes"][0]["anchors"]
    assert [a["state"] for a in anchors] == ["moved", "moved"]
    assert anchors[0]["now"]["path"] == "scripts/ship.sh"
    assert anchors[1]["now"]["path"] == "src/main.py" and anchors[1]["now"]["lines"] == "4-6"


def test_deleted_file_is_gone(memenv: MemEnv, repo: Path, cli: Any) -> None:
    add_cited(cli, "scripts/deploy.sh", "src/app.py#other")
    (repo / "scripts" / "deploy.sh").unlink()
    (repo / "src" / "app.py").unlink()
    result = cli("verify")
    assert result.exit_code == 1
    assert "gone      scripts/deploy.sh  scripts/deploy.sh no longer exists" in result.stdout
    assert "gone      src/app.py#other" in result.stdout


def test_lines_that_move_are_followed_and_lines_that_change_are_not(memenv: MemEnv, repo: Path,
                                                                    cli: Any) -> None:
    add_cited(cli, "src/app.py:4-6", "src/app.py:9-10")
    text = APP.replace("    return 1\n", "    return 2\n")
    (repo / "src" / "app.py").write_text("# a header\n# of two lines\n" + text)
    code, data = verify_json(cli)
    assert code == 1
    first, second = data["notes"][0]["anchors"]
    assert (first["state"], first["now"]["lines"]) == ("moved", "6-8")
    assert first["detail"] == "now at lines 6-8"
    assert second["state"] == "changed"
    # The pinned text is read back from git (the file's blob id): the lines are followed to
    # where they went, and the summary compares them there.
    assert second["detail"] == "now at lines 11-12: 1 line added, 1 removed, from line 12"


def test_a_symbol_is_its_definition_block(memenv: MemEnv, repo: Path, cli: Any) -> None:
    add_cited(cli, "src/app.py#parse_config", "src/app.py#other")
    # An edit outside parse_config's block leaves it unchanged; other's body changed.
    (repo / "src" / "app.py").write_text("import sys\n" + APP.replace("return 1", "return 3"))
    code, data = verify_json(cli)
    assert code == 1
    assert states(data) == [("src/app.py#parse_config", "moved"), ("src/app.py#other", "changed")]
    (repo / "src" / "app.py").write_text(APP.replace("def other():\n    return 1\n", ""))
    _, data = verify_json(cli)
    assert states(data)[1] == ("src/app.py#other", "gone")


def test_verify_names_notes_and_says_which_match_none(memenv: MemEnv, repo: Path,
                                                      cli: Any) -> None:
    add_cited(cli, "scripts/deploy.sh")
    add_cited(cli, "src/app.py", title="App entry", text="The app starts in src/app.py.")
    (repo / "src" / "app.py").write_text("changed\n")
    code, data = verify_json(cli, "Deploy workflow")
    assert code == 0 and states(data) == [("scripts/deploy.sh", "unchanged")]
    missing = cli("verify", "no-such-note")
    assert missing.exit_code == 1 and "no project note matches 'no-such-note'" in missing.output


def test_repin_accepts_the_current_content_and_keeps_other_bytes(memenv: MemEnv, repo: Path,
                                                                 cli: Any) -> None:
    name = add_cited(cli, "scripts/deploy.sh", "src/app.py:4-6", "src/app.py#other")
    path = memenv.project / name
    # A key memcli does not know, written by a person: kept byte for byte.
    path.write_text(path.read_text().replace("cites:\n", "owner:   'ops team'  # keep\ncites:\n"))
    git(repo, "mv", "scripts/deploy.sh", "scripts/ship.sh")
    (repo / "src" / "app.py").write_text("# header\n" + APP.replace("def other():\n"
                                                                   "    return 1\n", ""))
    assert cli("verify").exit_code == 1
    result = cli("verify", "--repin", name)
    assert result.exit_code == 0, result.output
    assert "dropped the anchor" in result.output and "src/app.py#other" in result.output
    text = path.read_text()
    assert "owner:   'ops team'  # keep\n" in text
    assert "path: scripts/ship.sh" in text and "lines: 5-7" in text and "other" not in text
    code, data = verify_json(cli)
    assert code == 0
    assert {s for _, s in states(data)} == {"unchanged"}
    assert "verify --repin" in cli("log").stdout


def test_repin_dry_run_writes_nothing(memenv: MemEnv, repo: Path, cli: Any) -> None:
    name = add_cited(cli, "scripts/deploy.sh")
    (repo / "scripts" / "deploy.sh").write_text("changed\n")
    before = memenv.stores_snapshot()
    result = cli("verify", "--repin", "--dry-run", name)
    assert result.exit_code == 0 and "+  digest: blob:" in result.output
    assert memenv.stores_snapshot() == before


def test_an_update_without_cites_keeps_them_byte_for_byte(memenv: MemEnv, repo: Path,
                                                          cli: Any) -> None:
    name = add_cited(cli, "src/app.py:4-6")
    before = cites_in(memenv, name)
    code, _ = memenv.apply_json([{"action": "update", "level": "project", "filename": name,
                                  "content": "Deploy with the new flow."}])
    assert code == 0
    assert cites_in(memenv, name) == before


# ---------------------------------------------------------------------- safety


def test_a_link_is_never_followed(memenv: MemEnv, repo: Path, cli: Any, tmp_path: Path) -> None:
    outside = tmp_path / "secret.txt"
    outside.write_text("secret\n")
    (repo / "leak.txt").symlink_to(outside)
    (repo / "linked").symlink_to(tmp_path)
    for cite in ("leak.txt", "linked/secret.txt"):
        result = cli("add", "--cite", cite, "--title", f"About {cite}", "A note.")
        assert result.exit_code == 1 and "no such file" in result.output
    # A repository's own note may cite a link: verify says so and reads nothing through it.
    memenv.write_note("project", "project_knowledge_leak.md", raw=(
        "---\ntype: project_knowledge\ntitle: Leak\nsummary: S.\nupdated: 2026-11-29\n"
        "cites:\n- path: linked/secret.txt\n  digest: blob:" + "0" * 40 + "\n---\nBody.\n"
    ).encode())
    result = cli("verify")
    assert result.exit_code == 1
    assert "gone      linked/secret.txt  linked/secret.txt is a link or not a regular file" \
        in result.stdout


def test_a_file_git_ignores_is_never_cited(memenv: MemEnv, repo: Path, cli: Any) -> None:
    # A digest of a secret's line would be a guessable hash of it, committed with the notes.
    (repo / ".gitignore").write_text(".env\n")
    (repo / ".env").write_text("API_PASSWORD=hunter2\n")
    result = cli("add", "--cite", ".env:1", "The password is in .env.")
    assert result.exit_code == 1 and "ignored by git" in result.output
    turn = json.dumps({"role": "user", "content": "Remember that secrets live in .env only."})
    [op] = json.loads(cli("extract", input=turn + "\n").stdout)["operations"]
    assert "cites" not in op
    memenv.write_note("project", "project_knowledge_env.md", raw=(
        "---\ntype: project_knowledge\ntitle: Env\nsummary: S.\nupdated: 2026-11-29\n"
        "cites:\n- path: .env\n  lines: 1-1\n  digest: sha256:" + "0" * 64 + "\n---\nBody.\n"
    ).encode())
    result = cli("verify")
    assert result.exit_code == 1
    assert "gone      .env:1  .env is ignored by git" in result.stdout


def test_an_untrusted_note_citing_outside_is_reported_never_read(memenv: MemEnv, repo: Path,
                                                                  cli: Any) -> None:
    memenv.write_note("project", "project_knowledge_evil.md", raw=(
        b"---\ntype: project_knowledge\ntitle: Evil\nsummary: S.\ncreated: 2026-11-29T10:00:00Z\n"
        b"updated: 2026-11-29T10:00:00Z\ncites:\n- ../../etc/passwd\n- /etc/hostname\n"
        b"- path: src/app.py\n  lines: 4-6\n  symbol: other\n---\nBody.\n"))
    cli("index")
    result = cli("lint", "--format", "json")
    codes = [(f["code"], f["line"], f["message"].split(";")[0])
             for f in json.loads(result.stdout)["findings"]]
    assert ("M217", 7, "cites entry 1: the path climbs out with '..'") in codes
    assert ("M217", 7, "cites entry 2: the path is absolute") in codes
    assert ("M217", 7, "cites entry 3: an entry cites lines or a symbol, not both") in codes
    assert result.exit_code == 1  # M217 is an error
    assert verify_json(cli) == (0, {"root": str(repo), "notes": [], "stale": False,
                                    "staged": False,
                                    "counts": {"unchanged": 0, "moved": 0, "unpinned": 0,
                                               "changed": 0, "gone": 0}})


# ---------------------------------------------------------------------- everywhere else


def test_lint_warns_of_changed_and_gone_anchors(memenv: MemEnv, repo: Path, cli: Any) -> None:
    name = add_cited(cli, "scripts/deploy.sh", "src/app.py:4-6")
    assert cli("lint").exit_code == 0
    (repo / "scripts" / "deploy.sh").write_text("changed\n")
    (repo / "src" / "app.py").unlink()
    result = cli("lint", "--format", "json")
    found = [(f["code"], f["severity"], f["path"].rsplit("/", 1)[-1])
             for f in json.loads(result.stdout)["findings"]]
    assert found == [("M218", "warning", name), ("M219", "warning", name)]
    assert result.exit_code == 0
    assert cli("lint", "--strict").exit_code == 1


def test_status_counts_anchors(memenv: MemEnv, repo: Path, cli: Any) -> None:
    name = add_cited(cli, "scripts/deploy.sh", "src/app.py:4-6", "src/app.py#other")
    (repo / "scripts" / "deploy.sh").write_text("changed\n")
    (repo / "src" / "app.py").unlink()
    data = json.loads(cli("status", "--json").stdout)
    assert data["levels"][0]["anchors"] == {
        "total": 3, "changed": [f"{name}: scripts/deploy.sh"],
        "gone": [f"{name}: src/app.py:4-6", f"{name}: src/app.py#other"]}
    assert data["healthy"] is False


def test_context_and_recall_mark_a_note_whose_cited_file_changed(memenv: MemEnv, repo: Path,
                                                                 cli: Any) -> None:
    add_cited(cli, "scripts/deploy.sh")
    add_cited(cli, "src/app.py", title="App entry", text="The app starts in src/app.py.")
    (repo / "scripts" / "deploy.sh").write_text("changed\n")
    block = cli("context").stdout
    [deploy] = [line for line in block.splitlines() if "Deploy workflow" in line]
    [app] = [line for line in block.splitlines() if "App entry" in line]
    assert "[cited file changed since this was written: scripts/deploy.sh" in deploy
    assert "cited" not in app
    recalled = cli("recall", "how do I deploy with the VPN?").stdout
    assert ("(memcli: cited file changed since this was written: scripts/deploy.sh (check "
            "before relying on it))\nDeploy with") in recalled


def test_the_rules_extractor_cites_the_files_a_note_names(memenv: MemEnv, repo: Path,
                                                          cli: Any) -> None:
    turn = json.dumps({"role": "user", "content": "Remember that deploys run "
                       "./scripts/deploy.sh and never ../outside.sh or scripts/missing.sh."})
    result = cli("extract", input=turn + "\n")
    deploys, never = json.loads(result.stdout)["operations"]
    blob = git(repo, "rev-parse", "HEAD:scripts/deploy.sh")
    assert deploys["cites"] == [{"path": "scripts/deploy.sh", "digest": f"blob:{blob}"}]
    assert "cites" not in never  # neither a path out nor a file that does not exist
    assert cli("apply", "-", input=result.stdout).exit_code == 0
    assert states(verify_json(cli)[1]) == [("scripts/deploy.sh", "unchanged")]


def test_a_command_in_backticks_cites_the_file_it_runs_from(memenv: MemEnv, repo: Path,
                                                             cli: Any) -> None:
    (repo / "Makefile").write_text("test:\n\tpytest\n")
    turn = json.dumps({"role": "user", "content": "Remember: the test command is `make test`; "
                       "make sure it passes."})
    [op] = json.loads(cli("extract", input=turn + "\n").stdout)["operations"]
    assert [c["path"] for c in op["cites"]] == ["Makefile"]
    (repo / "Makefile").unlink()
    [op] = json.loads(cli("extract", input=turn + "\n").stdout)["operations"]
    assert "cites" not in op


def test_verify_staged_warns_of_what_the_commit_changes(memenv: MemEnv, repo: Path,
                                                        cli: Any) -> None:
    add_cited(cli, "scripts/deploy.sh", "src/app.py")
    (repo / "src" / "app.py").write_text("changed\n")  # changed, but not in this commit
    (repo / "scripts" / "deploy.sh").write_text("changed\n")
    git(repo, "add", "scripts/deploy.sh")
    result = cli("verify", "--staged")
    assert result.exit_code == 0
    assert "changed   scripts/deploy.sh" in result.stdout and "src/app.py" not in result.stdout
    git(repo, "reset", "-q")
    (repo / "README").write_text("x\n")
    git(repo, "add", "README")
    assert "the commit changes no cited code" in cli("verify", "--staged").output


# ---------------------------------------------------------------------- the model


@pytest.mark.parametrize("text, expected", [
    ("scripts/deploy.sh", {"path": "scripts/deploy.sh"}),
    ("./src//app.py:7", {"path": "src/app.py", "lines": "7"}),
    ("src/app.py:4-6", {"path": "src/app.py", "lines": "4-6"}),
    ("src/store.py#Store.load", {"path": "src/store.py", "symbol": "Store.load"}),
    ("src/lib.rs#Store::load", {"path": "src/lib.rs", "symbol": "Store::load"}),
])
def test_short_anchors(text: str, expected: dict[str, str]) -> None:
    from memcli.store.anchors import parse_short

    assert parse_short(text).as_value() == expected


@pytest.mark.parametrize("entry, why", [
    ({"path": "a.py", "lines": "4-6", "symbol": "f"}, "not both"),
    ({"path": "a.py", "digest": "sha256:" + "0" * 64}, "a whole file's digest is blob:"),
    ({"path": "a.py", "lines": 3, "digest": "blob:" + "0" * 40}, "a whole file's digest"),
    ({"path": "a.py", "digest": "md5:abc"}, "'digest' must be"),
    ({"path": "a.py", "blob": "0" * 40}, "'blob' must be"),
    ({"path": "a.py", "owner": "me"}, "unknown key 'owner'"),
    ({"path": ["a.py"]}, "no 'path' text"),
    ({"path": "a.py", "symbol": "rm -rf"}, "a symbol is a name"),
    ({"path": "a\x1b[2J.py"}, "control character"),
    ({"path": "C:/Windows/win.ini"}, "absolute"),
    ({"path": "src/../../x"}, "climbs out"),
    ({"path": ".GIT/hooks/pre-commit"}, "into .git"),
    (42, "must be a path or a mapping"),
])
def test_entries_that_are_not_anchors(entry: object, why: str) -> None:
    from memcli.store.anchors import AnchorError, parse_entry

    with pytest.raises(AnchorError, match=re.escape(why)):
        parse_entry(entry)


def test_a_cites_list_is_bounded() -> None:
    from memcli.store.anchors import MAX_ANCHORS, parse_cites

    anchors, problems = parse_cites([f"f{i}.py" for i in range(MAX_ANCHORS + 5)])
    assert len(anchors) == MAX_ANCHORS and problems == [
        f"cites holds {MAX_ANCHORS + 5} entries; at most {MAX_ANCHORS} are read"]


SOURCES = {
    "python": (b"class Store:\n    x = 1\n\n    def load(self):\n        return 1\n\n"
               b"    def save(self):\n        return 2\n", "Store.load", (4, 5)),
    "python-signature": (b"def parse(\n    a,\n) -> int:\n    return a\n\nother = 1\n",
                         "parse", (1, 4)),
    "javascript": (b"export async function load(x) {\n  return x;\n}\nconst y = 1;\n",
                   "load", (1, 3)),
    "go": (b"package s\n\nfunc (s *Store) Load() error {\n\treturn nil\n}\n", "Load", (3, 5)),
    "rust": (b"impl Store {\n    pub fn load(&self) {\n        1\n    }\n}\n", "Store::load",
             (2, 4)),
    "assignment": (b"TIMEOUT = 30\nRETRIES = 3\n", "RETRIES", (2, 2)),
    "a use is no definition": (b"x = load()\nreturn load\n", "load", None),
}


@pytest.mark.parametrize("name", SOURCES)
def test_a_symbol_is_found_where_it_is_defined(name: str) -> None:
    from memcli.store.anchor_symbols import find_symbol

    source, symbol, span = SOURCES[name]
    assert find_symbol(source.split(b"\n"), symbol) == span
