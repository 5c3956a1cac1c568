"""`memcli apply`: validation against the stores, every rejection reason, dry-run, the
conflict policies and --strict (issue 2)."""

from __future__ import annotations

import json
import random
import string
import unicodedata
from typing import Any

import pytest

from memcli.store.folder import fingerprint
from memcli.store.index import DEFAULT_HEADER

NOW = "2026-11-29T10:00:00Z"
LATER = "2026-12-01T08:30:00Z"

BUILD_NOTE = (
    "---\n"
    "type: project_knowledge\n"
    "title: Build workflow\n"
    "summary: Run Go tests before release.\n"
    f"created: {NOW}\n"
    f"updated: {NOW}\n"
    "---\n"
    "Run `go test ./...` before tagging a release.\n"
)
BUILD_LINE = ("- [project_knowledge] Build workflow — Run Go tests before release. "
              "(project_knowledge_build.md)")


def create(title: str, level: str = "project", note_type: str = "project_knowledge",
           content: str | None = None, **extra: Any) -> dict[str, Any]:
    return {"action": "create", "level": level, "type": note_type, "title": title,
            "content": content or f"{title} is worth remembering.", **extra}


def update(filename: str, content: str, level: str = "project", **extra: Any) -> dict[str, Any]:
    return {"action": "update", "level": level, "filename": filename, "content": content, **extra}


def delete(filename: str, level: str = "project") -> dict[str, Any]:
    return {"action": "delete", "level": level, "filename": filename}


BUILD = create("Build workflow", content="Run `go test ./...` before tagging a release.",
               summary="Run Go tests before release.", slug="build")


def github_token(seed: int = 7) -> str:
    rng = random.Random(seed)
    return "ghp_" + "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(36))


def messages(report: dict[str, Any], kind: str = "rejected") -> list[str]:
    return [item["message"] for item in report[kind]]


# --------------------------------------------------------------------------- happy path


def test_apply_writes_notes_and_both_indexes(memenv) -> None:
    ops = [BUILD, create("Answer language", "user", "user_preference",
                         "Answer in Chinese unless asked otherwise. Be brief.")]
    result = memenv.apply(ops)
    assert result.exit_code == 0, result.output
    assert (memenv.project / "project_knowledge_build.md").read_text() == BUILD_NOTE
    assert memenv.index("project") == DEFAULT_HEADER + BUILD_LINE + "\n"
    user_note = (memenv.user / "user_preference_answer-language.md").read_text()
    assert "summary: Answer in Chinese unless asked otherwise.\n" in user_note
    assert memenv.index("user").endswith(
        "- [user_preference] Answer language — Answer in Chinese unless asked otherwise. "
        "(user_preference_answer-language.md)\n")
    assert "create project/project_knowledge_build.md" in result.stdout
    assert "2 applied" in result.stderr and "written" in result.stderr
    assert memenv.notes("project") == ["project_knowledge_build.md"]  # nothing hidden left


def test_both_document_forms_and_a_fresh_base(memenv) -> None:
    code, report = memenv.apply_json([BUILD])
    assert code == 0 and report["written"] and report["base_stale"] == []
    base = {"project": fingerprint((memenv.project / "MEMORY.md").read_bytes()),
            "user": fingerprint(None)}
    doc = {"operations": [create("Second fact")], "base": base}
    code, report = memenv.apply_json(doc)
    assert code == 0
    assert report["base_stale"] == []
    assert [a["file"] for a in report["applied"]] == ["project_knowledge_second-fact.md"]
    assert report["files"] == [
        {"level": "project", "file": "project_knowledge_second-fact.md", "change": "created"},
        {"level": "project", "file": "MEMORY.md", "change": "modified"},
    ]


def test_stale_base_is_reported_and_ops_checked_against_the_current_store(memenv) -> None:
    stale = {"project": fingerprint(None), "user": fingerprint(None)}
    memenv.apply([BUILD])
    doc = {"operations": [update("project_knowledge_build.md", "Run make test first."),
                          create("Build workflow", content="again")],
           "base": stale}
    code, report = memenv.apply_json(doc)
    assert report["base_stale"] == ["project"]
    assert code == 1  # the duplicate create is rejected against the store as it is now
    assert [a["file"] for a in report["applied"]] == ["project_knowledge_build.md"]
    assert "duplicate" in messages(report)[0]

    text = memenv.apply({"operations": [create("Third")], "base": stale})
    assert text.exit_code == 0
    assert "project store changed since extraction (stale base)" in text.stderr


def test_apply_reads_a_file_with_a_bom(memenv) -> None:
    path = memenv.root / "ops.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps([BUILD]).encode())
    result = memenv.invoke("apply", str(path))
    assert result.exit_code == 0, result.output
    assert (memenv.project / "project_knowledge_build.md").read_text() == BUILD_NOTE


def test_create_then_update_then_delete_in_one_batch(memenv) -> None:
    ops = [create("Temp"), update("project_knowledge_temp.md", "Changed."),
           create("Kept"), delete("project_knowledge_temp.md")]
    code, report = memenv.apply_json(ops)
    assert code == 0, report
    assert len(report["applied"]) == 4
    assert memenv.notes("project") == ["project_knowledge_kept.md"]
    assert "temp" not in memenv.index("project")


def test_summary_is_derived_from_the_first_sentence(memenv) -> None:
    ops = [create("Deploy", content="- Deploys go through Argo!\nNever kubectl apply."),
           create("测试命令", content="测试命令是 pytest -q。不要用 unittest。"),
           create("Long", content="word " * 100)]
    assert memenv.apply(ops).exit_code == 0
    index = memenv.index("project")
    assert "Deploy — Deploys go through Argo! (project_knowledge_deploy.md)" in index
    assert "测试命令 — 测试命令是 pytest -q。 (project_knowledge_测试命令.md)" in index
    long_line = next(ln for ln in index.splitlines() if "_long.md" in ln)
    summary = long_line.split(" — ")[1].rsplit(" (", 1)[0]
    assert summary.endswith("…") and len(summary) <= 160


def test_update_keeps_unknown_keys_and_every_untouched_byte(memenv) -> None:
    raw = (
        "---\n"
        "type: project_knowledge   # kept\n"
        "title: Build workflow\n"
        "owner: platform\n"
        "summary: Old summary.\n"
        "tags: [go, ci]\n"
        "created: 2025-01-01T00:00:00Z\n"
        "updated: 2025-01-01T00:00:00Z\n"
        "---\n"
        "Body line one.  \n"
        "\n"
        "Body line two.\n"
    )
    memenv.write_note("project", "project_knowledge_build.md", raw=raw.encode())
    code, report = memenv.apply_json(
        [update("project_knowledge_build.md", "Body line one.  \n\nBody line two.\n",
                summary="New summary.")])
    assert code == 0, report
    after = (memenv.project / "project_knowledge_build.md").read_text()
    assert after == raw.replace("summary: Old summary.", "summary: New summary.").replace(
        "updated: 2025-01-01T00:00:00Z", f"updated: {NOW}")

    code, report = memenv.apply_json([update("project_knowledge_build.md", "Brand new body.")])
    assert code == 0
    after2 = (memenv.project / "project_knowledge_build.md").read_text()
    assert after2.split("---\n")[1] == after.split("---\n")[1]  # frontmatter untouched
    assert after2.endswith("---\nBrand new body.\n")


def test_update_with_the_same_content_is_unchanged_and_writes_nothing(memenv) -> None:
    memenv.apply([BUILD])
    before = memenv.snapshot()
    code, report = memenv.apply_json(
        [update("project_knowledge_build.md", "Run `go test ./...` before tagging a release.\n")])
    assert code == 0
    assert report["written"] is False and report["files"] == []
    assert [u["file"] for u in report["unchanged"]] == ["project_knowledge_build.md"]
    assert memenv.snapshot() == before


def test_update_can_change_type_title_and_summary(memenv) -> None:
    memenv.apply([BUILD])
    code, report = memenv.apply_json([update(
        "project_knowledge_build.md", "Always run go test before a release.",
        type="correction_feedback", title="Release check", summary="Test before release.")])
    assert code == 0, report
    assert memenv.notes("project") == ["correction_feedback_build.md"]
    assert "renamed from project_knowledge_build.md" in report["applied"][0]["message"]
    text = (memenv.project / "correction_feedback_build.md").read_text()
    assert ("type: correction_feedback\ntitle: Release check\nsummary: Test before release.\n"
            in text)
    assert f"created: {NOW}" in text
    assert memenv.index("project").endswith(
        "- [correction_feedback] Release check — Test before release. "
        "(correction_feedback_build.md)\n")


def test_derived_summary_follows_new_content_but_a_given_one_stays(memenv) -> None:
    memenv.apply([create("Fact", content="First version. More.")])
    memenv.apply([update("project_knowledge_fact.md", "Second version. More.")])
    fact = memenv.project / "project_knowledge_fact.md"
    assert "summary: Second version.\n" in fact.read_text()
    memenv.apply([BUILD])
    memenv.apply([update("project_knowledge_build.md", "Completely different text.")])
    assert "summary: Run Go tests before release.\n" in (
        memenv.project / "project_knowledge_build.md").read_text()


# --------------------------------------------------------------------------- rejections


def test_update_and_delete_of_a_missing_note_are_rejected(memenv) -> None:
    memenv.apply([BUILD])
    before = memenv.snapshot()
    code, report = memenv.apply_json([
        update("project_knowledge_nope.md", "x"),
        delete("reference_material_old-wiki.md"),
        delete("project_knowledge_build.md", level="user"),  # exists, but in the other store
    ])
    assert code == 1
    assert messages(report) == [
        "no note project_knowledge_nope.md in the project store",
        "no note reference_material_old-wiki.md in the project store",
        "no note project_knowledge_build.md in the user store",
    ]
    assert [r["position"] for r in report["rejected"]] == [1, 2, 3]
    assert report["written"] is False
    assert memenv.snapshot() == before


@pytest.mark.parametrize(
    ("second", "why"),
    [
        (create("Other title", slug="build"), "same file name"),
        (create("build WORKFLOW"), "same title"),
        (create("  Build\tworkflow "), "same title"),
        (create("Different", slug="BUILD"), "same file name"),
    ],
    ids=["file name", "title in another case", "title with other spacing", "slug case twin"],
)
def test_duplicate_create_is_rejected(memenv, second: dict[str, Any], why: str) -> None:
    memenv.apply([BUILD])
    before = memenv.snapshot()
    code, report = memenv.apply_json([second])
    assert code == 1
    [message] = messages(report)
    assert message.startswith("duplicate: project_knowledge_build.md already exists in the "
                              "project store")
    assert why in message and "--on-conflict" in message
    assert memenv.snapshot() == before


def test_duplicate_title_across_levels_or_types_is_fine(memenv) -> None:
    memenv.apply([BUILD])
    code, report = memenv.apply_json([create("Build workflow", level="user")])
    assert code == 0, report


def test_duplicate_within_one_batch(memenv) -> None:
    code, report = memenv.apply_json([create("Same"), create("same")])
    assert code == 1
    assert len(report["applied"]) == 1
    assert "duplicate: project_knowledge_same.md" in messages(report)[0]


def test_case_twin_on_disk_is_the_same_note(memenv) -> None:
    memenv.write_note("project", "project_knowledge_Build.md", {
        "type": "project_knowledge", "title": "Hand made", "summary": "x"})
    code, report = memenv.apply_json([create("Build", content="new")])
    assert code == 1
    assert "duplicate: project_knowledge_Build.md" in messages(report)[0]
    # an update by the canonical name reaches the twin instead of creating a second file
    code, report = memenv.apply_json([update("project_knowledge_build.md", "Updated.")])
    assert code == 0, report
    assert memenv.notes("project") == ["project_knowledge_Build.md"]
    assert (memenv.project / "project_knowledge_Build.md").read_text().endswith("Updated.\n")


def test_delete_a_case_twin_and_create_its_canonical_name_in_one_batch(memenv) -> None:
    """One file on a case-insensitive filesystem, two on this one: either way the new note
    is what is left (the delete must not remove the file the batch just wrote)."""
    memenv.write_note("project", "project_knowledge_Build.md", {
        "type": "project_knowledge", "title": "Old", "summary": "x"})
    code, report = memenv.apply_json([
        {"action": "delete", "level": "project", "filename": "project_knowledge_Build.md"},
        create("Build", content="The new note.")])
    assert code == 0, report
    assert memenv.notes("project") == ["project_knowledge_build.md"]
    assert (memenv.project / "project_knowledge_build.md").read_text().endswith("The new note.\n")
    assert memenv.invoke("index", "--check").exit_code == 0


def test_nfc_twin_on_disk_is_the_same_note(memenv) -> None:
    nfd_name = unicodedata.normalize("NFD", "project_knowledge_café.md")
    memenv.write_note("project", nfd_name, {
        "type": "project_knowledge", "title": "Coffee", "summary": "x"})
    code, report = memenv.apply_json([create("Café", content="new")])
    assert code == 1
    assert "duplicate" in messages(report)[0] and "same file name" in messages(report)[0]
    code, report = memenv.apply_json([delete(unicodedata.normalize("NFC", nfd_name))])
    assert code == 0, report
    assert memenv.notes("project") == []


def test_update_to_a_title_another_note_holds_is_rejected(memenv) -> None:
    memenv.apply([BUILD, create("Other")])
    code, report = memenv.apply_json(
        [update("project_knowledge_other.md", "x", title="BUILD workflow")])
    assert code == 1
    assert "already used by project_knowledge_build.md" in messages(report)[0]


def test_type_change_onto_an_existing_name_is_rejected(memenv) -> None:
    memenv.apply([BUILD, create("Other", note_type="reference_material", slug="build")])
    code, report = memenv.apply_json(
        [update("project_knowledge_build.md", "x", type="reference_material")])
    assert code == 1
    assert "reference_material_build.md already exists" in messages(report)[0]


def test_invalid_operations_are_reported_by_position(memenv) -> None:
    ops = [create("Good one"), {"action": "merge", "level": "project"},
           {**create("No type"), "type": "memo"}, "not an object",
           create("Slug", slug="../../etc/x")]
    code, report = memenv.apply_json(ops)
    assert code == 1
    rejected = {r["position"]: r["message"] for r in report["rejected"]}
    assert set(rejected) == {2, 3, 4, 5}
    assert "unknown action 'merge'" in rejected[2]
    assert rejected[3].startswith("type: must be one of")
    assert rejected[4] == "not a JSON object"
    assert "path separator" in rejected[5]
    assert memenv.notes("project") == ["project_knowledge_good-one.md"]


def test_an_operation_keyed_op_is_rejected_with_exit_1(memenv) -> None:
    misnamed = {k: v for k, v in create("Misnamed").items() if k != "action"}
    result = memenv.apply([create("Fine"), {**misnamed, "op": "create"}])
    assert result.exit_code == 1
    assert ('rejected #2: no "action" (it says "op": \'create\'; the key is "action")'
            in result.stderr)
    assert memenv.notes("project") == ["project_knowledge_fine.md"]


def test_rejections_are_printed_on_stderr_with_exit_1(memenv) -> None:
    result = memenv.apply([create("Fine"), delete("project_knowledge_ghost.md")])
    assert result.exit_code == 1
    assert ("memcli: error: rejected #2 delete: no note project_knowledge_ghost.md in the "
            "project store") in result.stderr
    assert "1 applied, 1 rejected" in result.stderr
    assert "create project/project_knowledge_fine.md" in result.stdout


def test_noop_and_empty_actions_are_skipped(memenv) -> None:
    code, report = memenv.apply_json([{"action": "noop"}, {"action": ""}, {}, create("Real")])
    assert code == 0, report
    assert report["skipped"] == [1, 2, 3]
    assert len(report["applied"]) == 1


def test_an_empty_batch_writes_and_creates_nothing(memenv) -> None:
    before = memenv.snapshot()
    for doc in ([], {"operations": []}, [{"action": "noop"}]):
        code, report = memenv.apply_json(doc)
        assert code == 0 and report["written"] is False
    assert memenv.snapshot() == before
    assert not memenv.project.exists() and not memenv.user.exists()


def test_all_rejected_creates_leave_no_store_folder_behind(memenv) -> None:
    before = memenv.snapshot()
    code, _ = memenv.apply_json([create("X", content="  ")])
    assert code == 1
    code, _ = memenv.apply_json([create("X"), create("x")], "--strict")
    assert code == 1
    assert memenv.snapshot() == before


# --------------------------------------------------------------------------- secrets


def test_secrets_are_redacted_and_reported_in_dry_run_and_json(memenv) -> None:
    token = github_token()
    op = create("Release token", content=f"Push tags with {token} from CI.",
                summary=f"token {token}")
    before = memenv.snapshot()
    dry = memenv.apply([op], "--dry-run")
    assert dry.exit_code == 0
    assert token not in dry.output
    assert "redacted 1 secret (github-token) from the content" in dry.stdout
    assert "redacted 1 secret (github-token) from the summary" in dry.stdout
    assert "+Push tags with [REDACTED] from CI." in dry.stdout
    assert memenv.snapshot() == before

    code, report = memenv.apply_json([op])
    assert code == 0
    assert token not in json.dumps(report)
    warnings = report["applied"][0]["warnings"]
    assert "redacted 1 secret (github-token) from the content" in warnings
    note = (memenv.project / "project_knowledge_release-token.md").read_text()
    assert token not in note and "[REDACTED]" in note
    assert token not in memenv.index("project")


def test_secrets_in_updates_and_titles_are_redacted(memenv) -> None:
    memenv.apply([create("Database")])
    url = "postgres://app:S3cretPassw0rd@db.internal/app"
    code, report = memenv.apply_json([update("project_knowledge_database.md", f"Connect to {url}")])
    assert code == 0
    assert any("url-password" in w for w in report["applied"][0]["warnings"])
    text = (memenv.project / "project_knowledge_database.md").read_text()
    assert "S3cretPassw0rd" not in text and "postgres://app:[REDACTED]@db.internal/app" in text


def test_a_secret_in_a_title_or_slug_never_becomes_a_file_name(memenv) -> None:
    token, other = github_token(8), github_token(9)
    code, report = memenv.apply_json([
        create(f"Token {token}", content="x"),
        create("Second", slug=f"key-{other}", content="y"),
        create("Third", slug="postgres://app:S3cretPassw0rd@db/x", content="z"),
    ])
    assert code == 1  # the third: its slug holds a path separator
    assert [a["file"] for a in report["applied"]] == [
        "project_knowledge_token-redacted.md", "project_knowledge_key-redacted.md"]
    assert "redacted 1 secret (github-token) from the title" in report["applied"][0]["warnings"]
    assert "redacted 1 secret (github-token) from the slug" in report["applied"][1]["warnings"]
    assert "S3cretPassw0rd" not in json.dumps(report)
    everything = repr(memenv.snapshot()).lower()
    for secret in (token, other, "S3cretPassw0rd"):
        assert secret.lower() not in everything
    assert "title: Token [REDACTED]\n" in (
        memenv.project / "project_knowledge_token-redacted.md").read_text()


# --------------------------------------------------------------------------- dry run


def test_dry_run_prints_a_unified_diff_and_writes_nothing(memenv) -> None:
    memenv.apply([BUILD, create("Old wiki", note_type="reference_material", slug="old-wiki")])
    before = memenv.snapshot()
    ops = [create("Answer language", "user", "user_preference", "Answer in Chinese.",
                  reason="the user asked twice"),
           update("project_knowledge_build.md", "Run `make test` before tagging."),
           delete("reference_material_old-wiki.md")]
    result = memenv.apply(ops, "--dry-run")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "would create user/user_preference_answer-language.md  (the user asked twice)" in out
    for header in ("--- /dev/null\n+++ b/user/user_preference_answer-language.md",
                   "--- /dev/null\n+++ b/user/MEMORY.md",
                   "--- a/project/project_knowledge_build.md\n"
                   "+++ b/project/project_knowledge_build.md",
                   "--- a/project/reference_material_old-wiki.md\n+++ /dev/null",
                   "--- a/project/MEMORY.md\n+++ b/project/MEMORY.md"):
        assert header in out, header
    assert "-Run `go test ./...` before tagging a release.\n+Run `make test` before tagging." in out
    assert "@@" in out
    assert "dry run, nothing written" in result.stderr
    assert memenv.snapshot() == before

    proc = memenv.call("apply", "--dry-run", "--json", "-", input=json.dumps(ops))
    assert proc.returncode == 0
    report = json.loads(proc.stdout)
    assert report["dry_run"] is True and report["written"] is False
    assert {(f["level"], f["file"], f["change"]) for f in report["files"]} == {
        ("user", "user_preference_answer-language.md", "created"),
        ("user", "MEMORY.md", "created"),
        ("project", "project_knowledge_build.md", "modified"),
        ("project", "reference_material_old-wiki.md", "deleted"),
        ("project", "MEMORY.md", "modified"),
    }
    assert memenv.snapshot() == before


def test_dry_run_on_fresh_stores_creates_no_folder(memenv) -> None:
    before = memenv.snapshot()
    result = memenv.apply([BUILD], "--dry-run")
    assert result.exit_code == 0
    assert "+++ b/project/project_knowledge_build.md" in result.stdout
    assert memenv.snapshot() == before


# --------------------------------------------------------------------------- policies


def test_strict_writes_nothing_when_anything_is_rejected(memenv) -> None:
    memenv.apply([BUILD])
    before = memenv.snapshot()
    ops = [create("Fine"), create("Also fine", "user"), delete("project_knowledge_ghost.md")]
    code, report = memenv.apply_json(ops, "--strict")
    assert code == 1
    assert report["written"] is False and report["files"] == []
    assert [h["position"] for h in report["held"]] == [1, 2]
    assert "--strict" in report["held"][0]["message"]
    assert memenv.snapshot() == before
    code, report = memenv.apply_json(ops[:2], "--strict")
    assert code == 0 and report["written"] is True


def test_on_conflict_update_turns_a_duplicate_create_into_an_update(memenv) -> None:
    memenv.apply([BUILD])
    op = create("build workflow", content="Run `make release`.", summary="Use make.")
    code, report = memenv.apply_json([op], "--on-conflict", "update")
    assert code == 0, report
    assert memenv.notes("project") == ["project_knowledge_build.md"]
    text = (memenv.project / "project_knowledge_build.md").read_text()
    assert "title: build workflow\nsummary: Use make.\n" in text
    assert text.endswith("---\nRun `make release`.\n")
    assert "already existed: updated it" in report["applied"][0]["warnings"][0]
    # The same create again changes nothing, and says only that (not "updated it").
    code, report = memenv.apply_json([op], "--on-conflict", "update")
    assert code == 0, report
    assert report["applied"] == [] and len(report["unchanged"]) == 1, report
    assert report["unchanged"][0].get("warnings", []) == []


def test_on_conflict_rename_creates_a_second_note(memenv) -> None:
    memenv.apply([BUILD])
    op = create("Other", slug="build", content="Something else.")
    code, report = memenv.apply_json([op, op], "--on-conflict", "rename")
    assert code == 0, report
    assert memenv.notes("project") == [
        "project_knowledge_build-2.md", "project_knowledge_build-3.md",
        "project_knowledge_build.md",
    ]
    assert (memenv.project / "project_knowledge_build.md").read_text() == BUILD_NOTE
    assert memenv.invoke("index", "--check").exit_code == 0


def test_on_conflict_rename_terminates_on_long_four_byte_slugs(memenv) -> None:
    """Regression: the free-name search looped forever (holding the lock) on such slugs."""
    title = "".join(chr(0x20000 + i) for i in range(60))
    # Two notes of one title that say different things (the same words are one note).
    ops = json.dumps([create(title), create(title, content="Something else.")])
    proc = memenv.call("apply", "--on-conflict", "rename", "--json", "-", input=ops, timeout=30)
    assert proc.returncode == 0, proc.stderr
    assert len(memenv.notes("project")) == 2
    assert all(len(name.encode()) <= 255 for name in memenv.notes("project"))


def test_unknown_on_conflict_is_a_usage_error(memenv) -> None:
    before = memenv.snapshot()
    result = memenv.apply([BUILD], "--on-conflict", "merge")
    assert result.exit_code == 2
    assert "--on-conflict" in result.stderr
    assert memenv.snapshot() == before


# --------------------------------------------------------------------------- broken notes

BROKEN = {
    "project_knowledge_bad-yaml.md": b"---\ntitle: [unclosed\n---\nbody\n",
    "project_knowledge_no-fence.md": b"---\ntype: project_knowledge\ntitle: x\nbody\n",
    "project_knowledge_latin1.md": b"---\ntype: project_knowledge\ntitle: caf\xe9\n---\n",
    "project_knowledge_list.md": b"---\n- a\n- b\n---\nbody\n",
}


def test_broken_notes_are_reported_and_never_rewritten_or_dropped(memenv) -> None:
    slugs = [name.removeprefix("project_knowledge_").removesuffix(".md") for name in BROKEN]
    memenv.apply([create(slug, slug=slug) for slug in slugs])
    lines = {name: next(ln for ln in memenv.index("project").splitlines() if name in ln)
             for name in BROKEN}
    for name, data in BROKEN.items():
        (memenv.project / name).write_bytes(data)

    result = memenv.apply([create("Unrelated")])
    assert result.exit_code == 0, result.output
    for name, data in BROKEN.items():
        assert (memenv.project / name).read_bytes() == data
        assert f"warning: project store: {name}:" in result.stderr
        assert lines[name] in memenv.index("project").splitlines()
    assert "Unrelated" in memenv.index("project")

    code, report = memenv.apply_json([update(name, "fixed?") for name in BROKEN])
    assert code == 1
    for name, message in zip(BROKEN, messages(report), strict=True):
        assert message.startswith(name + ":") and "fix it by hand" in message
    for name, data in BROKEN.items():
        assert (memenv.project / name).read_bytes() == data

    listing = memenv.invoke("show")
    for name in BROKEN:
        assert name in listing.stderr

    code, report = memenv.apply_json([delete("project_knowledge_list.md")])
    assert code == 0, report  # a broken note can still be removed on purpose
    assert "project_knowledge_list.md" not in memenv.index("project")
