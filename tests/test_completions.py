"""Shell completion: the shipped scripts match the app, and real shells complete with them.

bash and zsh run interactively on a pseudo-terminal: the test types ``memcli li``, TAB, then
moves to the start of the line and types ``echo `` and Enter, so the shell prints the line
as completion left it. fish completes non-interactively with ``complete -C``. Each shell
finds the script where a package install puts it (zsh's $fpath, fish's completion path) or
sources it, and runs the installed ``memcli`` at TAB time, as a person's shell does.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import shutil
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from memcli.cli.completion_scripts import FILE_NAMES, SHELLS, completion_script

ROOT = Path(__file__).resolve().parents[1]
COMPLETIONS = ROOT / "completions"
DEADLINE = 30.0
_ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]|\x1b\][^\x07]*\x07")


# --------------------------------------------------------------------------- the files


@pytest.mark.parametrize("shell", SHELLS)
def test_shipped_script_matches_what_the_app_generates(shell: str) -> None:
    shipped = (COMPLETIONS / FILE_NAMES[shell]).read_text("utf-8")
    assert shipped == completion_script(shell), (
        f"completions/{FILE_NAMES[shell]} is out of date; regenerate the scripts with "
        "`memcli completion --write-to completions`"
    )


@pytest.mark.parametrize("shell", ["bash", "fish"])
def test_completion_env_var_gives_the_shipped_script(shell: str, tmp_path: Path) -> None:
    done = subprocess.run([memcli_command()], env={**shell_env(tmp_path),
                                                   "_MEMCLI_COMPLETE": f"source_{shell}"},
                          capture_output=True, timeout=DEADLINE, check=False)
    assert done.returncode == 0, (
        f"`_MEMCLI_COMPLETE=source_{shell} memcli` failed: {done.stderr.decode()!r}; "
        "memcli's command group answers that variable (memcli.cli.completion_answers)"
    )
    assert done.stdout.decode() == (COMPLETIONS / FILE_NAMES[shell]).read_text("utf-8")


@pytest.mark.parametrize("shell", SHELLS)
def test_completion_command_prints_the_shipped_script(shell: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "memcli", "completion", shell],
                          env=shell_env(tmp_path), capture_output=True, timeout=DEADLINE,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == (COMPLETIONS / FILE_NAMES[shell]).read_text("utf-8")


def test_an_unknown_shell_is_a_usage_error(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "memcli", "completion", "tcsh"],
                          env=shell_env(tmp_path), capture_output=True, timeout=DEADLINE,
                          check=False)
    assert done.returncode == 2
    assert b"unknown shell 'tcsh'" in done.stderr


def test_the_wheel_installs_the_three_scripts() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    shared = config["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    assert shared == {
        "completions/memcli.bash": "share/bash-completion/completions/memcli",
        "completions/_memcli": "share/zsh/site-functions/_memcli",
        "completions/memcli.fish": "share/fish/vendor_completions.d/memcli.fish",
    }


# --------------------------------------------------------------------------- real shells


def memcli_command() -> str:
    """The installed console script, which is what a shell runs at TAB time."""
    beside = Path(sys.executable).parent / "memcli"
    found = str(beside) if beside.exists() else shutil.which("memcli")
    if found is None:
        pytest.fail("no `memcli` command next to this Python or on PATH; install the package")
    return found


def shell_env(tmp_path: Path) -> dict[str, str]:
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("MEMCLI_", "_MEMCLI", "BASH_", "ZDOTDIR", "FISH"))}
    home = tmp_path / "shell-home"
    home.mkdir(exist_ok=True)
    bin_dir = str(Path(memcli_command()).parent)
    return {**keep, "HOME": str(home), "MEMCLI_HOME": str(home / ".memcli"),
            "ZDOTDIR": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
            "XDG_DATA_HOME": str(home / ".local" / "share"), "INPUTRC": os.devnull,
            "PATH": bin_dir + os.pathsep + keep.get("PATH", os.defpath),
            "EDITOR": "nano", "VISUAL": "nano", "NO_COLOR": "1"}


def need(shell: str) -> str:
    found = shutil.which(shell)
    if found is not None:
        _require_tab_completion()
        return found
    message = (f"{shell.upper()} IS NOT INSTALLED: completion in {shell} was NOT TESTED. "
               f"Install it (apt-get install {shell}); .ci/run does.")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def _require_tab_completion() -> None:
    """Fail at once, with the reason, rather than after a shell waited for a completion."""
    probe = subprocess.run([memcli_command()], capture_output=True, timeout=DEADLINE,
                           check=False, env={**os.environ, "_MEMCLI_COMPLETE": "complete_bash",
                                             "COMP_WORDS": "memcli li", "COMP_CWORD": "1"})
    if probe.stdout.split() != [b"lint"]:
        pytest.fail("`memcli` does not answer TAB completion requests "
                    f"({probe.stderr.decode().strip()!r}): memcli's command group answers "
                    "them when _MEMCLI_COMPLETE is set (memcli.cli.completion_answers)")


def run_on_terminal(argv: list[str], env: dict[str, str], steps: list[tuple[bytes, bytes]],
                    cwd: Path) -> list[str]:
    """Type each step's keys once its expected output has appeared; the screen's lines."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
    process = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env=env,
                               cwd=cwd, start_new_session=True)
    os.close(slave)
    screen = b""
    try:
        for keys, expected in steps:
            os.write(master, keys)
            screen = _read_until(master, screen, expected)
    finally:
        os.close(master)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
    return _lines(screen)


def _read_until(master: int, screen: bytes, expected: bytes) -> bytes:
    deadline = time.monotonic() + DEADLINE
    start = len(screen)
    while time.monotonic() < deadline:
        if expected in _ESCAPES.sub(b"", screen[start:]):
            return screen
        ready, _, _ = select.select([master], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the shell exited
            break
        if not chunk:
            break
        screen += chunk
    if expected in _ESCAPES.sub(b"", screen[start:]):
        return screen
    raise AssertionError(f"no {expected!r} within {DEADLINE} s; the terminal showed:\n"
                         + "\n".join(_lines(screen)))


def _lines(screen: bytes) -> list[str]:
    text = _ESCAPES.sub(b"", screen).decode("utf-8", "replace")
    return [line.strip() for line in re.split(r"\r*\n", text.replace("\r\r", "\r"))]


# Type `memcli li`, TAB, go to the start of the line (Ctrl-A), type `echo ` and run it: the
# shell prints the line as completion left it. (`READY$((0+1))` in the set-up line plays
# the same trick: the typed command never matches what it prints.)
TYPE_AND_PRINT = b"memcli li\t\x01echo \n"
COMPLETED = b"\nmemcli lint"


def test_bash_completes_memcli_l_to_lint(tmp_path: Path) -> None:
    bash = need("bash")
    script = COMPLETIONS / FILE_NAMES["bash"]
    lines = run_on_terminal(
        [bash, "--norc", "--noprofile", "-i"], {**shell_env(tmp_path), "PS1": "$ ",
                                                "TERM": "dumb"},
        [(f"source '{script}'; echo READY$((0+1))\n".encode(), b"READY1"),
         (TYPE_AND_PRINT, COMPLETED),
         (b"exit\n", b"exit")],
        tmp_path,
    )
    assert "memcli lint" in lines


def test_zsh_autoloads_memcli_from_fpath_and_completes_lint(tmp_path: Path) -> None:
    zsh = need("zsh")
    fpath = tmp_path / "site-functions"
    fpath.mkdir()
    shutil.copy(COMPLETIONS / FILE_NAMES["zsh"], fpath / "_memcli")
    lines = run_on_terminal(
        [zsh, "-f", "-i"], {**shell_env(tmp_path), "TERM": "xterm"},
        [(f"fpath=('{fpath}' $fpath); autoload -Uz compinit; compinit -u -D; bindkey -e; "
          "PS1='%# '; echo READY$((0+1))\n".encode(), b"READY1"),
         (TYPE_AND_PRINT, COMPLETED),
         (b"exit\n", b"exit")],
        tmp_path,
    )
    assert "memcli lint" in lines


def test_zsh_completes_lint_with_the_script_sourced_after_compinit(tmp_path: Path) -> None:
    zsh = need("zsh")
    script = COMPLETIONS / FILE_NAMES["zsh"]
    lines = run_on_terminal(
        [zsh, "-f", "-i"], {**shell_env(tmp_path), "TERM": "xterm"},
        [(f"autoload -Uz compinit; compinit -u -D; source '{script}'; bindkey -e; "
          "PS1='%# '; echo READY$((0+1))\n".encode(), b"READY1"),
         (TYPE_AND_PRINT, COMPLETED),
         (b"exit\n", b"exit")],
        tmp_path,
    )
    assert "memcli lint" in lines


def test_fish_loads_memcli_from_its_completion_path_and_offers_lint(tmp_path: Path) -> None:
    fish = need("fish")
    vendor = tmp_path / "vendor_completions.d"
    vendor.mkdir()
    shutil.copy(COMPLETIONS / FILE_NAMES["fish"], vendor / "memcli.fish")
    done = subprocess.run(
        [fish, "--no-config", "-c",
         f"set -p fish_complete_path '{vendor}'; complete -C 'memcli li'"],
        env=shell_env(tmp_path), capture_output=True, timeout=DEADLINE, check=False, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    offered = [line.split("\t")[0] for line in done.stdout.decode().splitlines()]
    assert offered == ["lint"], done.stdout


def test_fish_shows_help_texts_as_written(tmp_path: Path) -> None:
    """Help is plain text: typer's rich rendering would eat "[env …]" as a markup tag."""
    fish = need("fish")
    done = subprocess.run(
        [fish, "--no-config", "-c",
         f"source '{COMPLETIONS / FILE_NAMES['fish']}'; complete -C 'memcli --'"],
        env=shell_env(tmp_path), capture_output=True, timeout=DEADLINE, check=False, cwd=tmp_path,
    )
    assert "--project-store\tProject store folder [env MEMCLI_PROJECT_STORE]." in (
        done.stdout.decode().splitlines()), done.stdout


# --------------------------------------------------------------------------- values


def _store_with_notes(tmp_path: Path) -> dict[str, str]:
    env = shell_env(tmp_path)
    project = tmp_path / "repo" / ".memcli" / "memory"
    env["MEMCLI_PROJECT_STORE"] = str(project)
    for text in ("Use pnpm, not npm.", "Run make test before a commit."):
        subprocess.run([memcli_command(), "add", text], env=env, cwd=tmp_path, check=True,
                       capture_output=True, timeout=DEADLINE)
    return env


def _bash_candidates(words: str, env: dict[str, str], cwd: Path) -> list[str]:
    parts = words.split(" ")
    done = subprocess.run([memcli_command()], capture_output=True, timeout=DEADLINE, check=False,
                          cwd=cwd, env={**env, "_MEMCLI_COMPLETE": "complete_bash",
                                        "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)})
    assert done.returncode == 0, done.stderr
    return done.stdout.decode().split()


@pytest.mark.parametrize(("words", "expected"), [
    ("memcli show --level ", ["project", "user", "all"]),
    ("memcli add --level ", ["project", "user"]),
    ("memcli add --type user", ["user_preference"]),
    ("memcli extract --provider ", ["rules", "auto", "openai", "anthropic", "ollama",
                                    "claude-code", "codex", "gemini", "copilot"]),
    ("memcli apply --on-conflict re", ["rename"]),
    ("memcli lint --format ", ["text", "json", "github"]),
    ("memcli completion ", ["bash", "zsh", "fish"]),
    ("memcli hooks install --agent ", ["claude-code", "codex", "gemini", "copilot", "git"]),
    ("memcli hooks install --agent c", ["claude-code", "codex", "copilot"]),
    ("memcli hooks install --scope ", ["project", "user"]),
    ("memcli consolidate --provider o", ["openai", "ollama"]),
])
def test_values_complete_to_their_choices(tmp_path: Path, words: str,
                                          expected: list[str]) -> None:
    assert _bash_candidates(words, shell_env(tmp_path), tmp_path) == expected


def test_note_names_complete_from_the_stores(tmp_path: Path) -> None:
    env = _store_with_notes(tmp_path)
    assert _bash_candidates("memcli show ", env, tmp_path) == [
        "project/project_knowledge_run-make-test-before-a-commit.md",
        "project/project_knowledge_use-pnpm-not-npm.md",
    ]
    assert _bash_candidates("memcli rm project_knowledge_u", env, tmp_path) == [
        "project_knowledge_use-pnpm-not-npm.md"]
    assert _bash_candidates("memcli show --level user ", env, tmp_path) == []


def test_bash_completes_a_level_value_for_real(tmp_path: Path) -> None:
    bash = need("bash")
    script = COMPLETIONS / FILE_NAMES["bash"]
    lines = run_on_terminal(
        [bash, "--norc", "--noprofile", "-i"], {**shell_env(tmp_path), "PS1": "$ ",
                                                "TERM": "dumb"},
        [(f"source '{script}'; echo READY$((0+1))\n".encode(), b"READY1"),
         (b"memcli show --level u\t\x01echo \n", b"\nmemcli show --level user"),
         (b"exit\n", b"exit")],
        tmp_path,
    )
    assert "memcli show --level user" in lines


def test_zsh_completes_a_level_value_for_real(tmp_path: Path) -> None:
    zsh = need("zsh")
    script = COMPLETIONS / FILE_NAMES["zsh"]
    lines = run_on_terminal(
        [zsh, "-f", "-i"], {**shell_env(tmp_path), "TERM": "xterm"},
        [(f"autoload -Uz compinit; compinit -u -D; source '{script}'; bindkey -e; "
          "PS1='%# '; echo READY$((0+1))\n".encode(), b"READY1"),
         (b"memcli show --level u\t\x01echo \n", b"\nmemcli show --level user"),
         (b"exit\n", b"exit")],
        tmp_path,
    )
    assert "memcli show --level user" in lines


def test_fish_offers_the_levels_for_real(tmp_path: Path) -> None:
    fish = need("fish")
    done = subprocess.run(
        [fish, "--no-config", "-c",
         f"source '{COMPLETIONS / FILE_NAMES['fish']}'; complete -C 'memcli show --level '"],
        env=shell_env(tmp_path), capture_output=True, timeout=DEADLINE, check=False, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    offered = [line.split("\t")[0] for line in done.stdout.decode().splitlines()]
    assert sorted(offered) == ["all", "project", "user"], done.stdout  # fish sorts
