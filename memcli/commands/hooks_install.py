"""`memcli hooks install` and `memcli hooks status`: an agent's settings, merged, not replaced.

Each agent keeps its hooks in a JSON file of its own shape. Installing reads the file,
adds memcli's command under each event it handles where it is missing, and writes the file
back whole (a temporary file renamed over it): every other key, event and hook stays as it
was, a second install changes nothing, and ``dry_run`` gives the diff instead. A file that
is not a JSON object is an error, and nothing is written.

A hook memcli adds names its extractor (`memcli hook AGENT --extractor auto` unless told
otherwise), so that it extracts with what the person has (a key, the agent's own CLI, a
local server, else the rules) whatever the settings' provider says.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypeGuard

from memcli.commands.agent_switches import (
    CODEX_ADVICE,
    codex_disabled,
    codex_home,
    enable_gemini_hooks,
    gemini_disabled,
)
from memcli.errors import InputError, UsageError
from memcli.settings.locations import expand_home

SCOPES = ("project", "user")


@dataclass(frozen=True)
class AgentHooks:
    """Where an agent reads its hooks from and what memcli puts there."""

    agent: str
    project_file: str            # relative to the project root
    user_file: str               # relative to the agent's home folder
    events: tuple[tuple[str, str], ...]  # (event key in the settings, memcli command)
    shape: str                   # "grouped" (Claude Code, Codex, Gemini) or "copilot"
    extra: Mapping[str, Any]     # fields of memcli's hook entry besides the command


AGENT_HOOKS: dict[str, AgentHooks] = {
    "claude-code": AgentHooks(
        "claude-code", ".claude/settings.json", ".claude/settings.json",
        tuple((e, "memcli hook claude-code") for e in
              ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd")),
        "grouped", {}),
    "codex": AgentHooks(
        "codex", ".codex/hooks.json", ".codex/hooks.json",
        tuple((e, "memcli hook codex")
              for e in ("SessionStart", "UserPromptSubmit", "Stop", "PreCompact")),
        "grouped", {"timeout": 30}),
    "gemini": AgentHooks(
        "gemini", ".gemini/settings.json", ".gemini/settings.json",
        tuple((e, "memcli hook gemini")
              for e in ("SessionStart", "BeforeAgent", "AfterAgent", "PreCompress")),
        # Gemini CLI counts timeouts in milliseconds.
        "grouped", {"name": "memcli", "timeout": 30_000}),
    "copilot": AgentHooks(
        "copilot", ".github/hooks/memcli.json", ".copilot/hooks/memcli.json",
        tuple((e, f"memcli hook copilot {e}") for e in
              ("sessionStart", "agentStop", "preCompact")),
        "copilot", {"timeoutSec": 30}),
}


@dataclass(frozen=True)
class InstallResult:
    agent: str
    path: Path
    added: list[str]             # events memcli was added to
    already: list[str]           # events that had memcli's hook already
    written: bool
    diff: str
    extractor: str | None = None  # the provider the hooks' extractions use, when chosen
    changed: list[str] = field(default_factory=list)  # events whose --extractor changed
    # What else the install did, and what the agent needs before it runs the hooks.
    notes: tuple[str, ...] = ()
    needs_attention = False  # what cannot be installed is an error, raised


@dataclass(frozen=True)
class HookStatus:
    agent: str
    scope: str
    path: Path
    exists: bool
    wired: list[str]
    missing: list[str]
    extractor: str | None = None  # the hooks' --extractor; None: the settings' provider
    # Each wired event's --extractor (None: the settings' provider), when they differ.
    extractors: dict[str, str | None] = field(default_factory=dict)
    # What `auto` resolves to for this agent now, and why, when a hook uses auto.
    auto: tuple[str, str] | None = None
    disabled: str = ""  # why the agent will not run them though they are wired ('' if none)


def settings_path(spec: AgentHooks, scope: str, project_root: Path, home: Path,
                  env: Mapping[str, str]) -> Path:
    if scope not in SCOPES:
        raise UsageError(f"unknown scope {scope!r}; use project or user")
    if scope == "project":
        return project_root / spec.project_file
    if spec.agent == "codex" and env.get("CODEX_HOME"):
        return expand_home(env["CODEX_HOME"], home) / "hooks.json"
    return home / spec.user_file


EXTRACTOR_CHOICES = ("agent", "auto", "rules", "openai", "anthropic", "ollama")
# What a hook memcli adds extracts with when `--extractor` is not given.
DEFAULT_EXTRACTOR = "auto"


def extractor_for(agent: str, extractor: str | None) -> str | None:
    """The provider `--extractor` names for AGENT's hooks: "agent" is that agent's own CLI."""
    if extractor is None:
        return None
    if extractor not in EXTRACTOR_CHOICES:
        raise UsageError(f"unknown extractor {extractor!r}; choose one of "
                         f"{', '.join(EXTRACTOR_CHOICES)}")
    return agent if extractor == "agent" else extractor


def install(agent: str, scope: str, project_root: Path, home: Path, env: Mapping[str, str],
            *, dry_run: bool = False, extractor: str | None = None) -> InstallResult:
    """Add memcli's hooks, each naming its extractor (`--extractor X`, DEFAULT_EXTRACTOR
    when EXTRACTOR is None). An EXTRACTOR given replaces the one memcli's existing hooks
    name; without it, an existing hook keeps whatever it runs (a person's choice stays)."""
    spec = _spec(agent)
    given = extractor_for(agent, extractor)
    provider = given or DEFAULT_EXTRACTOR
    path = settings_path(spec, scope, project_root, home, env)
    before = _read(path)
    document = json.loads(json.dumps(before))  # a deep copy to edit
    added: list[str] = []
    already: list[str] = []
    changed: list[str] = []
    key = "bash" if spec.shape == "copilot" else "command"
    for event, base_command in spec.events:
        command = f"{base_command} --extractor {provider}"
        entries = _event_entries(document, event, spec, path)
        found = _find_command(entries, base_command, spec.shape)
        if found is None:
            entries.append(_entry(command, spec))
            added.append(event)
        elif given and _extractor_of(found[key]) != given:
            found[key] = _with_extractor(found[key], given)
            changed.append(event)
        else:
            already.append(event)
    if spec.shape == "copilot":
        document.setdefault("version", 1)
    notes: list[str] = []
    switched = agent == "gemini" and enable_gemini_hooks(document)
    if switched:
        notes.append(f"turned Gemini CLI's hooks on in {path} (hooksConfig.enabled was false)")
    old_text = _dump(before) if path.exists() else ""
    new_text = _dump(document)
    # A project file by its path in the repository, as git shows it; a user file in full.
    shown = (f"a/{spec.project_file}", f"b/{spec.project_file}") if scope == "project" \
        else (str(path), str(path))
    diff = _diff(shown, old_text, new_text) if added or changed or switched else ""
    written = bool(added or changed or switched) and not dry_run
    if written:
        _write(path, new_text)
    why = _disabled(agent, scope, project_root, home, env)
    if why and not (notes and f"is false in {path};" in why):  # not the one turned on here
        notes.append(f"{_AGENT_NAMES[agent]} will not run them yet: {why}")
    if agent == "codex":
        notes.append(CODEX_ADVICE.format(config=codex_home(home, env) / "config.toml"))
    return InstallResult(agent, path, added, already, written, diff, provider, changed,
                         tuple(notes))


_AGENT_NAMES = {"claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI",
                "copilot": "Copilot CLI"}


def _disabled(agent: str, scope: str, project_root: Path, home: Path,
              env: Mapping[str, str]) -> str:
    """Why AGENT will not run hooks wired at SCOPE, by its own switches ('' if none)."""
    if agent == "codex":
        return codex_disabled(scope, project_root, home, env)
    if agent == "gemini":
        return gemini_disabled(scope, project_root, home)
    return ""


def status(project_root: Path, home: Path, env: Mapping[str, str], *,
           provider: str | None = None, base_url: str | None = None) -> list[HookStatus]:
    """Each agent's hooks at each scope; PROVIDER is the settings' (what a hook without
    --extractor runs), BASE_URL where `auto` looks for a local server (None: the usual
    addresses)."""
    from memcli.providers.auto import choose, probe_local

    probed: dict[str | None, tuple[str, str] | None] = {}

    def probe_once(url: str | None) -> tuple[str, str] | None:
        # One probe of the local servers for every row, not one per agent and scope.
        if url not in probed:
            probed[url] = probe_local(url)
        return probed[url]

    rows = []
    for spec in AGENT_HOOKS.values():
        for scope in SCOPES:
            path = settings_path(spec, scope, project_root, home, env)
            row = _status_of(spec, scope, path)
            uses = {provider if chosen is None else chosen
                    for chosen in row.extractors.values()}
            if "auto" in uses:
                choice = choose(env, spec.agent, base_url, probe=probe_once)
                row = replace(row, auto=(choice.provider, choice.reason))
            if row.wired:
                row = replace(row, disabled=_disabled(spec.agent, scope, project_root, home,
                                                      env))
            rows.append(row)
    return rows


def _status_of(spec: AgentHooks, scope: str, path: Path) -> HookStatus:
    wired: list[str] = []
    missing: list[str] = []
    try:
        document = _read(path)
    except InputError:
        document = {}
    extractors: dict[str, str | None] = {}
    for event, command in spec.events:
        hooks = document.get("hooks") if isinstance(document.get("hooks"), dict) else {}
        entries = hooks.get(event) if isinstance(hooks, dict) else None
        found = _find_command(entries, command, spec.shape) if isinstance(entries, list) \
            else None
        (wired if found is not None else missing).append(event)
        if found is not None:
            text = found.get("bash" if spec.shape == "copilot" else "command")
            extractors[event] = _extractor_of(text) if isinstance(text, str) else None
    named = [chosen for chosen in extractors.values() if chosen]
    return HookStatus(spec.agent, scope, path, path.exists(), wired, missing,
                      named[0] if named else None, extractors)


def _spec(agent: str) -> AgentHooks:
    try:
        return AGENT_HOOKS[agent]
    except KeyError:
        known = ", ".join([*AGENT_HOOKS, "git"])
        raise UsageError(f"no hooks for agent {agent!r}; choose one of {known}") from None


def _read(path: Path) -> dict[str, Any]:
    if path.is_symlink():
        raise InputError(f"{path} is a symbolic link; memcli does not write through links")
    try:
        text = path.read_text("utf-8-sig")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None
    if not text.strip():
        return {}
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path} is not valid JSON ({exc}); fix it first, nothing was "
                         "written") from None
    if not isinstance(document, dict):
        raise InputError(f"{path} does not hold a JSON object; nothing was written")
    return document


def _event_entries(document: dict[str, Any], event: str, spec: AgentHooks,
                   path: Path) -> list[Any]:
    hooks = document.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InputError(f"{path}: 'hooks' is not an object; nothing was written")
    entries = hooks.setdefault(event, [])
    if not isinstance(entries, list):
        raise InputError(f"{path}: hooks.{event} is not a list; nothing was written")
    return entries


def _entry(command: str, spec: AgentHooks) -> dict[str, Any]:
    if spec.shape == "copilot":
        return {"type": "command", "bash": command, **spec.extra}
    return {"hooks": [{"type": "command", "command": command, **spec.extra}]}


def _extractor_of(command: str) -> str | None:
    words = command.split()
    at = words.index("--extractor") if "--extractor" in words else -1
    return words[at + 1] if 0 <= at < len(words) - 1 else None


def _with_extractor(command: str, provider: str) -> str:
    words = command.split()
    if "--extractor" in words:
        at = words.index("--extractor")
        del words[at:at + 2]
    return " ".join([*words, "--extractor", provider])


def _find_command(entries: Sequence[Any], command: str, shape: str) -> dict[str, Any] | None:
    """memcli's hook among ENTRIES, whatever options a person added to it; None if absent."""
    tail = command.split()[1:]

    def ours(hook: Any) -> TypeGuard[dict[str, Any]]:
        if not isinstance(hook, dict):
            return False
        text = hook.get("bash") if shape == "copilot" else hook.get("command")
        if not isinstance(text, str) or not text.startswith("memcli"):
            return False
        words = text.split()
        if _extractor_of(text) is not None:  # `--extractor X` ends the command
            at = words.index("--extractor")
            words = words[:at] + words[at + 2:]
        # A store override before the subcommand (memcli --user-store X hook ...) is ours too.
        return words[-len(tail):] == tail

    for entry in entries:
        if shape == "copilot" and ours(entry):
            return entry
        inner = entry.get("hooks") if isinstance(entry, dict) else None
        if isinstance(inner, list):
            for hook in inner:
                if ours(hook):
                    return hook
    return None


def _dump(document: Mapping[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _diff(shown: tuple[str, str], old: str, new: str) -> str:
    import difflib

    return "".join(difflib.unified_diff(old.splitlines(keepends=True),
                                        new.splitlines(keepends=True),
                                        fromfile=shown[0] if old else "/dev/null",
                                        tofile=shown[1]))


def _write(path: Path, text: str) -> None:
    # A project's settings file lives in a repository, which may come with a link planted
    # at a temporary name: replace_file's temporary file is fresh and never a link.
    from memcli.durable import replace_file

    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    replace_file(path, text.encode("utf-8"), mode)
