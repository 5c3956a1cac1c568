"""The one store reader: every command sees the same store, and only as much of it as needed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tiers import examples

from memcli.commands.lint import scan_store
from memcli.errors import BrokenNoteError, StoreError
from memcli.store.folder import load_store
from memcli.store.folder_files import list_store
from tests.conftest import MemEnv

GOOD = (b"---\ntype: project_knowledge\ntitle: Build\nsummary: How.\nupdated: 2026-11-29\n"
        b"---\nBody.\n")
# Contents a person (or a broken tool) might leave in a file named like a note.
CONTENTS = st.sampled_from([
    GOOD,
    b"no frontmatter at all\n",
    b"---\ntype: [unclosed\n---\nBody\n",
    b"---\ntitle: no closing fence\n",
    b"\xff\xfe not utf-8\n",
    b"---\n- a list\n---\n",
    b"---\ntitle: " + b"x" * (70 * 1024) + b"\n---\nBody\n",
    b"\xef\xbb\xbf---\r\ntitle: Bom\r\n---\r\nBody\r\n",
])
NAMES = st.sampled_from([
    "project_knowledge_a.md", "project_knowledge_b.md", "user_preference_c.md",
    "reference_material_d.md", "notes.txt", "README.md", "Project_Knowledge_E.MD",
])


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(files=st.dictionaries(NAMES, CONTENTS, max_size=6),
       odd=st.sampled_from(["", "folder", "symlink", "index-folder"]))
def test_lint_and_the_writer_see_the_same_store(tmp_path_factory: pytest.TempPathFactory,
                                                files: dict[str, bytes], odd: str) -> None:
    store = tmp_path_factory.mktemp("store")
    for name, data in files.items():
        (store / name).write_bytes(data)
    if odd == "folder":
        (store / "project_knowledge_folder.md").mkdir()
    elif odd == "symlink":
        os.symlink(store / "elsewhere.md", store / "project_knowledge_link.md")
    elif odd == "index-folder":
        (store / "MEMORY.md").mkdir()
    state = load_store("project", store)
    scan = scan_store("project", store)
    assert set(state.heads) == {n for n, f in scan.notes.items() if f.head is not None}
    assert set(state.broken) == {n for n, f in scan.notes.items() if f.head is None}
    assert state.unsafe == scan.odd
    assert state.stray == scan.stray
    assert state.rendered_index() == scan.state().rendered_index()


def test_a_huge_frontmatter_is_broken_for_index_as_for_lint(memenv) -> None:
    memenv.write_note("project", "project_knowledge_big.md",
                      raw=b"---\ntitle: " + b"x" * (70 * 1024) + b"\n---\nBody\n")
    index = memenv.invoke("index")
    assert "project_knowledge_big.md: the frontmatter is larger than 64 KiB" in index.output
    lint = memenv.invoke("lint", "--format", "json")
    codes = {(f["code"], Path(f["path"]).name) for f in json.loads(lint.stdout)["findings"]}
    assert ("M203", "project_knowledge_big.md") in codes
    assert "M201" not in {code for code, _ in codes}  # a broken note needs no index line


def test_a_state_without_bodies_keeps_no_note_bytes_and_reads_a_note_when_asked(
        tmp_path: Path) -> None:
    (tmp_path / "project_knowledge_build.md").write_bytes(GOOD)
    lean = load_store("project", tmp_path, bodies=False)
    assert lean.raw == {}
    assert [e.title for e in lean.entries()] == ["Build"]
    assert lean.notes["project_knowledge_build.md"].raw == GOOD
    full = load_store("project", tmp_path)
    assert full.raw == {"project_knowledge_build.md": GOOD}
    (tmp_path / "project_knowledge_build.md").write_bytes(b"changed by hand")
    assert full.notes["project_knowledge_build.md"].content == "Body."  # the bytes as read
    with pytest.raises(StoreError, match="changed while memcli read it"):
        lean.notes["project_knowledge_build.md"]


def test_a_dangling_symlink_store_is_not_a_folder_for_every_command(tmp_path: Path) -> None:
    store = tmp_path / "store"
    os.symlink(tmp_path / "gone", store)
    assert list_store("project", store).problem == "not a folder"
    with pytest.raises(StoreError, match="is not a folder"):
        load_store("project", store)
    assert scan_store("project", store).problem_code == "M308"


def _fence_by_lines(rest: str) -> tuple[str, str] | None:
    """The closing fence as a person reads it: the first line that is `---` or `...`."""
    position = 0
    for line in rest.splitlines(keepends=True):
        if line.rstrip("\r\n").rstrip() in ("---", "..."):
            return rest[:position], rest[position + len(line):]
        position += len(line)
    return None


_FENCE_TEXT = st.text(st.sampled_from(list(
    "-.ab \t\r\n\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u2028\u2029\u3000\u2000\u200b\ufeff")),
    max_size=30)


@settings(max_examples=examples(3000), deadline=None)
@given(rest=_FENCE_TEXT)
def test_the_fence_search_finds_the_line_a_line_split_finds(rest: str) -> None:
    from memcli.errors import BrokenNoteError
    from memcli.store.notes import _split_at_closing_fence

    try:
        found: tuple[str, str] | None = _split_at_closing_fence("x.md", rest)
    except BrokenNoteError:
        found = None
    assert found == _fence_by_lines(rest)


_INDEX_PIECES = st.sampled_from([
    b"# Memory index\n", b"\n", b"a hand-written line\n", b"# Memory index", b"\r\n",
    b"- [project_knowledge] Build \xe2\x80\x94 How. (project_knowledge_build.md)\n",
    b"- [project_knowledge] Build \xe2\x80\x94 How. (project_knowledge_build.md)\r\n",
    b"- [project_knowledge] Build \xe2\x80\x94 How. (project_knowledge_build.md)  \n",
    b"- [project_knowledge] Gone (project_knowledge_gone.md)\n", b"caf\xe9\n",
    b"- [user_preference] x (user_preference_broken.md)\n", b"\x0b\n",
])


@settings(max_examples=examples(150), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(_INDEX_PIECES, max_size=6))
def test_index_freshness_is_the_rewrite_compared(tmp_path: Path, pieces: list[bytes]) -> None:
    """index --check compares MEMORY.md with the rewrite piece by piece; same answer."""
    store = tmp_path / "store"
    store.mkdir(exist_ok=True)
    (store / "project_knowledge_build.md").write_bytes(GOOD)
    (store / "user_preference_broken.md").write_bytes(b"---\ntitle: [open\n---\nx\n")
    (store / "MEMORY.md").write_bytes(b"".join(pieces))
    state = load_store("project", store, bodies=False)
    if state.index_problem:  # not UTF-8: no rewrite equals it, and none is written
        assert not state.index_is_fresh()
        with pytest.raises(BrokenNoteError, match="will not rewrite it"):
            state.rendered_index()
        return
    assert state.index_is_fresh() == (state.rendered_index().encode() == state.index_bytes)
    (store / "MEMORY.md").write_bytes(state.rendered_index().encode())
    assert load_store("project", store, bodies=False).index_is_fresh()


def test_the_collector_is_paused_while_a_store_is_read_and_resumed_as_it_was() -> None:
    import gc

    from memcli.store.folder import collector_paused

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # an inner pause leaves the outer one in place
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a collector the caller had stopped stays stopped
    finally:
        gc.enable()


# --------------------------------------------------------------------------- not UTF-8

_LATIN1_LINE = b"- caf\xe9 is written in Latin-1 here\n"


def _store_with_a_latin1_index(memenv: MemEnv) -> bytes:
    assert memenv.invoke("add", "--level", "project", "Run the tests with pytest.").exit_code == 0
    index = memenv.project / "MEMORY.md"
    data = index.read_bytes() + b"\n" + _LATIN1_LINE
    index.write_bytes(data)
    return data


def test_reading_an_index_that_is_not_utf8_warns_with_its_line(memenv: MemEnv) -> None:
    data = _store_with_a_latin1_index(memenv)
    bad = data.index(b"\xe9")
    line = data.count(b"\n", 0, bad) + 1
    warning = f"MEMORY.md: line {line} is not valid UTF-8 (byte {bad})"
    for command in (["show"], ["context"]):
        result = memenv.call(*command)
        assert result.returncode == 0, result.stderr
        assert warning in result.stderr, (command, result.stderr)
        assert "Run the tests with pytest" in result.stdout
    lint = memenv.call("lint")
    assert lint.returncode == 1
    assert f"MEMORY.md:{line}:" in lint.stdout and "M301" in lint.stdout


@pytest.mark.parametrize("command", [
    ["add", "--level", "project", "Deploy with make deploy."],
    ["rm", "--yes", "project/project_knowledge_run-the-tests-with-pytest.md"],
    ["index"],
    ["lint", "--fix"],
])
def test_no_write_replaces_the_bytes_of_an_index_that_is_not_utf8(
        memenv: MemEnv, command: list[str]) -> None:
    # A rewrite decoded the file with replacement characters: the person's é became U+FFFD.
    data = _store_with_a_latin1_index(memenv)
    before = memenv.stores_snapshot()
    result = memenv.call(*command)
    assert memenv.stores_snapshot() == before
    assert (memenv.project / "MEMORY.md").read_bytes() == data
    if command[0] == "lint":
        assert result.returncode == 1 and "M301" in result.stdout
        return
    assert result.returncode == 3, result.stderr
    assert result.stderr.startswith("memcli: error: project store: MEMORY.md: line ")
    assert result.stderr.count("\n") == 1
    assert "re-save it as UTF-8; memcli will not rewrite it" in result.stderr


def test_status_is_not_healthy_with_an_index_that_is_not_utf8(memenv: MemEnv) -> None:
    data = _store_with_a_latin1_index(memenv)
    line = data.count(b"\n", 0, data.index(b"\xe9")) + 1
    text = memenv.call("status")
    assert f"MEMORY.md: line {line} is not valid UTF-8" in text.stdout
    assert "memcli: healthy" not in text.stderr
    report = json.loads(memenv.call("status", "--json").stdout)
    assert report["healthy"] is False
    project = next(lv for lv in report["levels"] if lv["level"] == "project")
    assert project["index_problem"].startswith(f"MEMORY.md: line {line} ")


def test_the_mcp_index_resource_refuses_an_index_that_is_not_utf8(memenv: MemEnv) -> None:
    # It read the file with read_text("utf-8"): a UnicodeDecodeError, not a memcli error.
    from memcli.mcp import tools as mcp_tools
    from memcli.settings.resolve import Flags, resolve

    _store_with_a_latin1_index(memenv)
    settings = resolve(Flags(), memenv.env, memenv.repo)
    with pytest.raises(BrokenNoteError, match=r"project store: MEMORY\.md: line .* UTF-8"):
        mcp_tools.index_text(settings, "project")
