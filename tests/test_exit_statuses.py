"""Exit statuses come from one table, and the one error handler maps every ending onto it."""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest
import typer

from memcli.cli._errors import handled
from memcli.errors import (
    EXIT_STATUSES,
    BrokenNoteError,
    ConfigError,
    ExitStatus,
    InputError,
    LockTimeout,
    MemcliError,
    NotFoundError,
    ProviderError,
    StoreError,
    UsageError,
    exit_status,
)

# The table moved from the README to the reference page with the README's other details.
README = Path(__file__).resolve().parents[1] / "docs" / "reference.md"


def _readme_table() -> dict[int, str]:
    text = README.read_text("utf-8")
    section = text.split("## Exit statuses", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (\d+) \| (.+?) \|$", section, flags=re.M)
    return {int(code): meaning for code, meaning in rows}


def test_readme_table_is_the_table_beside_the_error_classes() -> None:
    assert _readme_table() == {int(k): v for k, v in EXIT_STATUSES.items()}


@pytest.mark.parametrize(("error", "status"), [
    (MemcliError, 1), (NotFoundError, 1), (UsageError, 2), (ConfigError, 2), (InputError, 2),
    (StoreError, 3), (BrokenNoteError, 3), (LockTimeout, 3), (ProviderError, 4),
])
def test_each_error_class_has_its_documented_status(error: type[MemcliError],
                                                    status: int) -> None:
    assert error.exit_code == status
    assert ExitStatus(status) in EXIT_STATUSES


def _ending(raise_this: BaseException) -> int:
    @handled
    def command() -> None:
        raise raise_this

    with pytest.raises(typer.Exit) as ended:
        command()
    return ended.value.exit_code


def test_a_memcli_error_is_one_line_and_its_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert _ending(LockTimeout("the project store is locked")) == 3
    assert capsys.readouterr().err == "memcli: error: the project store is locked\n"


def test_interrupt_is_130(capsys: pytest.CaptureFixture[str]) -> None:
    assert _ending(KeyboardInterrupt()) == 130
    assert capsys.readouterr().err == "memcli: interrupted\n"


def test_an_unexpected_exception_is_a_crash_with_a_private_redacted_log(
        capsys: pytest.CaptureFixture[str]) -> None:
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    assert _ending(ZeroDivisionError(f"bad {token}")) == ExitStatus.CRASH == 5
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("memcli: internal error: ZeroDivisionError: bad ")
    log = Path(os.environ["MEMCLI_HOME"]) / "logs" / "crash.log"
    assert f"details in {log}" in err
    text = log.read_text("utf-8")
    assert "Traceback (most recent call last)" in text
    assert "memcli: " in text and "python: " in text
    assert token not in text and token not in err
    assert stat.S_IMODE(log.stat().st_mode) == 0o600


def test_crash_still_reports_when_the_log_cannot_be_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", "utf-8")
    monkeypatch.setenv("MEMCLI_HOME", str(blocker))
    assert _ending(RuntimeError("boom")) == 5
    assert "the crash log could not be written" in capsys.readouterr().err


def test_exits_and_broken_pipes_pass_through() -> None:
    assert _ending(typer.Exit(1)) == 1


# ---------------------------------------------------------------- results, in one place
SOURCE = Path(__file__).resolve().parents[1] / "memcli"


def test_no_module_but_errors_decides_an_exit_status() -> None:
    """A result states a fact (needs_attention); memcli.errors.exit_status turns it into a
    status. A number decided elsewhere (`exit_code`, `typer.Exit(1)`) is a second place."""
    import ast

    found = []
    for path in SOURCE.rglob("*.py"):
        if path == SOURCE / "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name == "exit_code":
                found.append(f"{path.relative_to(SOURCE)}: def exit_code")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("Exit", "exit")
                    and any(isinstance(a, ast.Constant) and a.value not in (None,)
                            for a in node.args)):
                found.append(f"{path.relative_to(SOURCE)}:{node.lineno}: {ast.unparse(node)}")
    assert found == []


@pytest.mark.parametrize(("outcome", "status"), [
    (None, ExitStatus.OK), (ExitStatus.USAGE, ExitStatus.USAGE),
])
def test_exit_status_of_no_result_or_a_status(outcome: ExitStatus | None,
                                              status: ExitStatus) -> None:
    assert exit_status(outcome) is status


def test_lint_errors_need_attention_and_warnings_only_when_strict() -> None:
    from memcli.commands.lint import CODES, LintReport
    from memcli.commands.lint._report import finding

    warning = next(code for code, (severity, _) in CODES.items() if severity == "warning")
    for strict in (False, True):
        report = LintReport(strict=strict)
        assert exit_status(report) is ExitStatus.OK
        report.findings.append(finding(warning, "a.md", 1, "x"))
        assert exit_status(report) is (ExitStatus.REJECTED if strict else ExitStatus.OK)
        report.findings.append(finding("M101", "MEMORY.md", 1, "x"))
        assert exit_status(report) is ExitStatus.REJECTED
