"""Every name memcli takes from inside typer, in this one module.

Since 0.26 typer vendors click as ``typer._click`` and says that code "should not be used by
external applications, as it will be subject to change"; extracting the click command
(``typer.main.get_command``) is no longer supported either. typer's public API (``Typer``,
``Option``, ``Argument``, ``Context``, ``Exit``, ``Abort``, ``BadParameter``, a ``cls=``
group) has no way to do three things memcli needs:

- print click's usage errors in memcli's one-line form: ``NoSuchOption``, ``UsageError``,
  ``NoArgsIsHelpError`` and ``ClickException`` are raised inside typer and never exported;
- answer TAB with the shell classes while ``add_completion=False`` keeps
  ``--install-completion`` out of the help (``add_completion_class`` and typer's classes);
- write the bash and fish scripts from the command tree (``get_command``).

Depending on the ``click`` package instead would not help: typer raises its own copies of
click's classes, which click's ``except`` clauses do not catch. So these names stay, all
here, and tests/test_typer_internals.py fails with a message naming the one that moved when
a typer release changes them. typer is also pinned below 0.29 for speed (pyproject.toml:
0.29 coerces every parameter through a pydantic TypeAdapter and has no public way around
it; benchmarks/typer_versions.py measures it).

Everything imported here is already loaded by ``import typer``: importing this costs nothing.
"""

from typer._click import Command
from typer._click.exceptions import ClickException, NoArgsIsHelpError, NoSuchOption, UsageError
from typer._click.shell_completion import (
    CompletionItem,
    add_completion_class,
    get_completion_class,
)
from typer._completion_classes import FishComplete, ZshComplete, completion_init
from typer.core import TyperGroup
from typer.main import get_command

__all__ = [
    "ClickException", "Command", "CompletionItem", "FishComplete", "NoArgsIsHelpError",
    "NoSuchOption", "TyperGroup", "UsageError", "ZshComplete", "add_completion_class",
    "completion_init", "get_command", "get_completion_class",
]
