"""Shell completion scripts for bash, zsh and fish.

The bash and fish scripts are typer's own, generated from the app, so they can never name a
command that does not exist. zsh is hand-written: typer's zsh script starts with a blank line
and calls ``compdef`` itself, so zsh's compinit ignores it when it is installed as
``_memcli`` in ``$fpath`` (see the project notes on shell completions).

At TAB time every script runs ``memcli`` with ``_MEMCLI_COMPLETE=complete_<shell>``; the
app is built with ``add_completion=False`` (no ``--install-completion`` in the help), which
also leaves typer's shell classes unregistered, so :func:`register_shells` must run before
the app does whenever that variable is set.

``memcli completion --write-to DIR`` rewrites the three files in DIR (the repository's
``completions/`` folder); a test fails when they drift from what this module generates. The
command tree comes in as an argument, so that this module never imports the CLI.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from memcli.errors import UsageError
from memcli.text import one_line

if TYPE_CHECKING:
    from memcli.cli._typer_internals import Command

PROG_NAME = "memcli"
COMPLETE_VAR = "_MEMCLI_COMPLETE"
SHELLS: tuple[str, ...] = ("bash", "zsh", "fish")
# Where each script goes in completions/ and, through the wheel's shared-data, on install.
FILE_NAMES = {"bash": "memcli.bash", "zsh": "_memcli", "fish": "memcli.fish"}

# The #compdef line must come first so that compinit autoloads the file from $fpath; the
# loadautofunc test lets the same file also be sourced from .zshrc.
ZSH_SCRIPT = """\
#compdef memcli
# zsh completion for memcli: put this file in a folder on $fpath (before compinit runs),
# or source it after compinit. The candidates come from memcli itself at TAB time.

_memcli() {
  local reply
  reply="$(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" _MEMCLI_COMPLETE=complete_zsh \\
    memcli 2>/dev/null)" || return 1
  eval "$reply"
}

if [[ "${zsh_eval_context[-1]}" == loadautofunc ]]; then
  _memcli "$@"
else
  compdef _memcli memcli
fi
"""


def register_shells() -> None:
    """Make typer's bash/zsh/fish classes known, which add_completion=False leaves undone."""
    from memcli.cli._typer_internals import (
        CompletionItem,
        FishComplete,
        ZshComplete,
        add_completion_class,
        completion_init,
    )

    completion_init()

    # typer passes every help text through rich to render markup. memcli's help has none
    # (rich_markup_mode=None), and importing rich doubles the time of each TAB in zsh and fish.
    class PlainZshComplete(ZshComplete):
        def format_completion(self, item: CompletionItem) -> str:
            if not item.help:
                return super().format_completion(item)
            return f'"{_zsh_escape(item.value)}":"{_zsh_escape(one_line(item.help))}"'

    class PlainFishComplete(FishComplete):
        def format_completion(self, item: CompletionItem) -> str:
            if not item.help:
                return super().format_completion(item)
            return f"{item.value}\t{one_line(item.help)}"

    add_completion_class(PlainZshComplete, "zsh")
    add_completion_class(PlainFishComplete, "fish")


def _zsh_escape(text: str) -> str:
    """As typer quotes a candidate for zsh's _arguments."""
    return (text.replace('"', '""').replace("'", "''").replace("$", "\\$")
            .replace("`", "\\`").replace(":", r"\\:"))




def completion_script(shell: str, command: Command) -> str:
    """The completion script for SHELL over COMMAND (memcli's tree), ending with a newline."""
    name = shell.strip().lower()
    if name == "zsh":
        return ZSH_SCRIPT
    if name not in SHELLS:
        raise UsageError(f"unknown shell '{shell}'; use one of: {', '.join(SHELLS)}")
    from memcli.cli._typer_internals import get_completion_class

    register_shells()
    completer = get_completion_class(name)
    if completer is None:  # pragma: no cover - typer renamed its shells
        raise UsageError(f"this typer version has no {name} completion")
    script = completer(command, {}, PROG_NAME, COMPLETE_VAR).source()
    return script.strip("\n") + "\n"


def write_scripts(folder: Path, command: Command) -> list[Path]:
    """Write every completion script into FOLDER; return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for shell in SHELLS:
        path = folder / FILE_NAMES[shell]
        path.write_text(completion_script(shell, command), encoding="utf-8", newline="\n")
        written.append(path)
    return written
