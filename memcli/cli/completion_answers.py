"""What memcli prints when a shell asks it for TAB candidates.

The scripts of :mod:`memcli.cli.completion_scripts` run ``memcli`` with
``_MEMCLI_COMPLETE=complete_<shell>`` and the words typed so far (bash: ``COMP_WORDS`` and
``COMP_CWORD``; zsh and fish: ``_TYPER_COMPLETE_ARGS``, the names typer's scripts used, so
that the scripts installed by earlier releases keep working). memcli answers it here, not
through typer's shell classes, which typer keeps in private modules and registers only with
``add_completion=True`` (that would put ``--install-completion`` in every listing).

Which command and which parameter are being typed is found from the command line with
click's documented API on the objects typer builds (``make_context``, ``get_command``,
``get_params``, ``shell_complete``, a parameter's ``opts`` and ``nargs``); the candidates
come from that command's or parameter's own ``shell_complete`` (the ``autocompletion=`` of
each option, memcli.cli._complete). Help texts are given as written: no rich rendering,
which would double the time of a TAB in zsh and fish (and eat "[env …]" as markup).
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from typing import Any

from memcli.text import one_line

# What a shell script sets besides the instruction (names kept from typer's scripts).
ARGS_VAR = "_TYPER_COMPLETE_ARGS"
FISH_ACTION_VAR = "_TYPER_COMPLETE_FISH_ACTION"


def answer(group: Any, instruction: str, env: Mapping[str, str]) -> tuple[str, int]:
    """The text to print and the exit status for INSTRUCTION (``complete_bash``,
    ``source_fish``...) asked of GROUP, memcli's command group. The text of a non-zero
    status is an error message, for stderr."""
    from memcli.cli.completion_scripts import SHELLS, completion_script

    action, _, shell = instruction.partition("_")
    if shell not in SHELLS:
        return f"memcli: error: no TAB completion for shell '{shell}'\n", 1
    if action == "source":
        return completion_script(shell), 0
    if action != "complete":
        return f"memcli: error: unknown completion instruction '{instruction}'\n", 1
    args, incomplete = typed_words(shell, env)
    items = candidates(group, args, incomplete)
    if shell == "bash":
        return "\n".join(str(item.value) for item in items) + "\n", 0
    if shell == "zsh":
        return _zsh_reply(items) + "\n", 0
    lines = [f"{item.value}\t{one_line(item.help)}" if item.help else str(item.value)
             for item in items]
    if env.get(FISH_ACTION_VAR) == "is-args":  # complete arguments (no file names) or not
        return "", 0 if lines else 1
    return "\n".join(lines) + "\n", 0


def typed_words(shell: str, env: Mapping[str, str]) -> tuple[list[str], str]:
    """The complete words after ``memcli`` and the word being typed, as SHELL's script
    passes them."""
    if shell == "bash":
        words = split_words(env.get("COMP_WORDS", ""))
        current = int(env.get("COMP_CWORD", "0") or 0)
        return words[1:current], words[current] if current < len(words) else ""
    line = env.get(ARGS_VAR, "")
    words = split_words(line)[1:]
    if words and not line.endswith(" "):
        return words[:-1], words[-1]
    return words, ""


def split_words(line: str) -> list[str]:
    """LINE split as the shell would, keeping an unclosed quote's word as typed so far."""
    lexer = shlex.shlex(line, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    words: list[str] = []
    try:
        words.extend(lexer)
    except ValueError:  # an open quote or a trailing backslash: the word as it stands
        words.append(lexer.token)
    return words


def candidates(group: Any, args: list[str], incomplete: str) -> list[Any]:
    """What TAB offers for INCOMPLETE after ARGS: click's completion items."""
    ctx = _context(group, args)
    target, incomplete = _target(ctx, list(args), incomplete)
    return list(target.shell_complete(ctx, incomplete))


def _context(group: Any, args: list[str]) -> Any:
    """The context of the innermost command ARGS name (the group's, the command's or a
    command group's subcommand's), parsed without callbacks or errors."""
    ctx = group.make_context("memcli", list(args), resilient_parsing=True)
    command, rest = group, list(args)
    while (at := _command_word(ctx, command, rest)) is not None:
        sub = command.get_command(ctx, rest[at])
        if sub is None:
            break
        name, rest = rest[at], rest[at + 1:]
        ctx = sub.make_context(name, list(rest), parent=ctx, resilient_parsing=True)
        if not hasattr(sub, "list_commands"):  # a command, not a command group
            break
        command = sub
    return ctx


def _command_word(ctx: Any, command: Any, words: list[str]) -> int | None:
    """Where in WORDS the subcommand's name is: the first word that is neither an option of
    COMMAND nor the value of one."""
    takes_value = {name for param in command.get_params(ctx) if _is_option(param)
                   and not param.is_flag for name in param.opts}
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            return i + 1 if i + 1 < len(words) else None
        if not word.startswith("-"):
            return i
        i += 2 if word in takes_value else 1
    return None


def _target(ctx: Any, args: list[str], incomplete: str) -> tuple[Any, str]:
    """The command or parameter whose candidates INCOMPLETE wants, and the text to match
    (click's rules: an option's name, an option's value, an argument, a command name)."""
    if incomplete == "=":
        incomplete = ""
    elif "=" in incomplete and incomplete.startswith("-"):  # --level=us
        name, _, incomplete = incomplete.partition("=")
        args.append(name)
    if "--" not in args and incomplete.startswith("-"):
        return ctx.command, incomplete
    params = ctx.command.get_params(ctx)
    for param in params:
        if _wants_its_value(param, args):
            return param, incomplete
    for param in params:
        if _open_argument(ctx, param):
            return param, incomplete
    return ctx.command, incomplete


def _is_option(param: Any) -> bool:
    return bool(param.param_type_name == "option")


def _wants_its_value(param: Any, args: list[str]) -> bool:
    """PARAM is an option that takes a value and is the last option given."""
    if not _is_option(param) or param.is_flag or getattr(param, "count", False):
        return False
    for index, word in enumerate(reversed(args)):
        if index + 1 > param.nargs:
            break
        if word.startswith("-"):
            return word in param.opts
    return False


def _open_argument(ctx: Any, param: Any) -> bool:
    """PARAM is an argument that can still take a value."""
    if param.param_type_name != "argument":
        return False
    value = ctx.params.get(param.name)
    source = ctx.get_parameter_source(param.name)
    return bool(param.nargs == -1 or getattr(source, "name", None) != "COMMANDLINE"
                or (param.nargs > 1 and isinstance(value, (tuple, list))
                    and len(value) < param.nargs))


def _zsh_reply(items: list[Any]) -> str:
    """What zsh's completion function evaluates: an _arguments call, or file names."""
    if not items:
        return "_files"
    rows = [f'"{_zsh_escape(item.value)}":"{_zsh_escape(one_line(item.help))}"' if item.help
            else f'"{_zsh_escape(item.value)}"' for item in items]
    joined = "\n".join(rows)
    return f"_arguments '*: :(({joined}))'"


def _zsh_escape(text: str) -> str:
    """A candidate quoted for zsh's _arguments (inside single quotes and double quotes)."""
    return (text.replace('"', '""').replace("'", "''").replace("$", "\\$")
            .replace("`", "\\`").replace(":", r"\\:"))
