"""Shell completion scripts for bash, zsh and fish.

Each script only hands the words typed so far to ``memcli`` at TAB time
(``_MEMCLI_COMPLETE=complete_<shell>``), and :mod:`memcli.cli.completion_answers` prints the
candidates, so a script never names a command and never goes stale. The bash and fish
scripts are the ones typer wrote for memcli until 0.28, word for word, so that the scripts
installed by earlier releases and these speak the same protocol; memcli writes them from
its own text, not typer's (typer keeps its shell classes in private modules). zsh's is
memcli's own: typer's starts with a blank line and calls ``compdef`` itself, so zsh's
compinit ignores it when it is installed as ``_memcli`` in ``$fpath`` (see the project
notes on shell completions).

``memcli completion --write-to DIR`` rewrites the three files in DIR (the repository's
``completions/`` folder); a test fails when they drift from what this module holds.
"""

from __future__ import annotations

from pathlib import Path

from memcli.errors import UsageError

SHELLS: tuple[str, ...] = ("bash", "zsh", "fish")
# Where each script goes in completions/ and, through the wheel's shared-data, on install.
FILE_NAMES = {"bash": "memcli.bash", "zsh": "_memcli", "fish": "memcli.fish"}

# bash 4.4 and later: the words so far in COMP_WORDS, the current one's index in COMP_CWORD;
# the reply is one candidate a line ("-o default": file names when there is none).
BASH_SCRIPT = """\
_memcli_completion() {
    local IFS=$'
'
    COMPREPLY=( $( env COMP_WORDS="${COMP_WORDS[*]}" \\
                   COMP_CWORD=$COMP_CWORD \\
                   _MEMCLI_COMPLETE=complete_bash $1 ) )
    return 0
}

complete -o default -F _memcli_completion memcli
"""

# fish asks twice: whether memcli completes the line at all (is-args: exit status 0), then
# the candidates, each with its help after a tab.
FISH_SCRIPT = (
    'complete --command memcli --no-files --arguments "(env _MEMCLI_COMPLETE=complete_fish '
    '_TYPER_COMPLETE_FISH_ACTION=get-args _TYPER_COMPLETE_ARGS=(commandline -cp) memcli)" '
    '--condition "env _MEMCLI_COMPLETE=complete_fish _TYPER_COMPLETE_FISH_ACTION=is-args '
    '_TYPER_COMPLETE_ARGS=(commandline -cp) memcli"\n'
)

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

SCRIPTS = {"bash": BASH_SCRIPT, "zsh": ZSH_SCRIPT, "fish": FISH_SCRIPT}


def completion_script(shell: str) -> str:
    """The completion script for SHELL, ending with a newline."""
    name = shell.strip().lower()
    if name not in SCRIPTS:
        raise UsageError(f"unknown shell '{shell}'; use one of: {', '.join(SHELLS)}")
    return SCRIPTS[name]


def write_scripts(folder: Path) -> list[Path]:
    """Write every completion script into FOLDER; return the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for shell in SHELLS:
        path = folder / FILE_NAMES[shell]
        path.write_text(completion_script(shell), encoding="utf-8", newline="\n")
        written.append(path)
    return written
