"""The agents' own switches for hooks: what turns memcli's hooks off after they are wired.

Read from the agents' documented settings (checked against their documentation, not
guessed):

- Codex CLI runs hooks unless ``[features] hooks = false`` (or the older name
  ``codex_hooks``) is set in a ``config.toml`` it loads: the user's (``$CODEX_HOME`` or
  ``~/.codex``) or the project's ``.codex/config.toml``. Codex versions from before hooks
  were on by default run them only with ``[features] codex_hooks = true``, and Codex asks
  the person to review and trust hooks it has not seen before it runs them.
- Gemini CLI runs hooks unless ``hooksConfig.enabled`` is ``false`` in its settings (the
  project's ``.gemini/settings.json`` overrides the user's ``~/.gemini/settings.json``).
  With folder trust on (``security.folderTrust.enabled`` in the user's settings), it
  ignores a project's ``.gemini/settings.json`` until the folder is trusted, which is
  recorded in ``~/.gemini/trustedFolders.json`` (a path to ``TRUST_FOLDER``,
  ``TRUST_PARENT`` for the folder above it, or ``DO_NOT_TRUST``).

TOML is only read here (the standard library has no writer, and a person's config.toml
has comments a rewrite would lose): for Codex, memcli says what to change. Gemini's
settings are JSON, which `memcli hooks install` already rewrites.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from memcli.settings.locations import expand_home

CODEX_ADVICE = ("Codex asks you to review and trust new hooks before it runs them; a Codex "
                "too old to run hooks by default needs `[features] codex_hooks = true` in "
                "{config}")


def codex_home(home: Path, env: Mapping[str, str]) -> Path:
    return expand_home(env["CODEX_HOME"], home) if env.get("CODEX_HOME") else home / ".codex"


def codex_disabled(scope: str, project_root: Path, home: Path,
                   env: Mapping[str, str]) -> str:
    """Why Codex will not run hooks wired at SCOPE ('' when no config.toml says so)."""
    configs = [codex_home(home, env) / "config.toml"]
    if scope == "project":
        configs.append(project_root / ".codex" / "config.toml")
    for config in configs:
        features = _toml(config).get("features")
        if not isinstance(features, dict):
            continue
        for key in ("hooks", "codex_hooks"):
            if features.get(key) is False:
                return (f"[features] {key} = false in {config}; set it to true there (or run "
                        "`codex features enable hooks`)")
    return ""


def gemini_disabled(scope: str, project_root: Path, home: Path) -> str:
    """Why Gemini CLI will not run hooks wired at SCOPE ('' when nothing says so)."""
    user_file = home / ".gemini" / "settings.json"
    user = _json(user_file)
    project = _json(project_root / ".gemini" / "settings.json") if scope == "project" else {}
    if scope == "project" and _folder_trust_on(user) and not gemini_trusted(project_root, home):
        return (f"Gemini CLI does not trust {project_root} (folder trust is on), so it ignores "
                ".gemini/settings.json; trust the folder when Gemini CLI asks at start")
    for settings, where in ((project, project_root / ".gemini" / "settings.json"),
                            (user, user_file)):
        enabled = _get(settings, "hooksConfig", "enabled")
        if enabled is True:
            return ""
        if enabled is False:
            return (f"hooksConfig.enabled is false in {where}; set it to true there (or "
                    "`memcli hooks install --agent gemini` at that scope)")
    return ""


def gemini_trusted(folder: Path, home: Path) -> bool:
    """Whether Gemini CLI's trusted folders hold FOLDER (by itself or a folder above it)."""
    rules = _json(home / ".gemini" / "trustedFolders.json")
    where = folder.resolve()
    trusted = False
    for path, level in rules.items():
        rule = expand_home(path, home)
        if level == "DO_NOT_TRUST" and rule == where:
            return False
        root = rule.parent if level == "TRUST_PARENT" else rule
        if level in ("TRUST_FOLDER", "TRUST_PARENT") and where.is_relative_to(root):
            trusted = True
    return trusted


def enable_gemini_hooks(document: dict[str, Any]) -> bool:
    """Turn hooks on in a Gemini settings DOCUMENT that turns them off; whether it did."""
    config = document.get("hooksConfig")
    if isinstance(config, dict) and config.get("enabled") is False:
        config["enabled"] = True
        return True
    return False


def _folder_trust_on(settings: Mapping[str, Any]) -> bool:
    return _get(settings, "security", "folderTrust", "enabled") is True


def _get(document: Mapping[str, Any], *keys: str) -> Any:
    value: Any = document
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


def _json(path: Path) -> dict[str, Any]:
    """A settings file of an agent, or {} when it is missing or unreadable: these are the
    agent's to report; memcli only looks."""
    try:
        value = json.loads(path.read_text("utf-8-sig"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def _toml(path: Path) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
