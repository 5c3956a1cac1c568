"""`memcli hooks install --review …`: the `review` setting written into a config file's
`[hooks]` table, the rest of the file kept as it is (comments included)."""

from __future__ import annotations

import re
from pathlib import Path

from memcli.errors import ConfigError, UsageError
from memcli.settings.review import parse_review, review_text
from memcli.store.names import NOTE_TYPES

_TABLE = re.compile(r"^\s*\[([^\]]+)\]\s*(?:#.*)?$")
_REVIEW = re.compile(r"^\s*review\s*=")


def checked_review(value: str) -> frozenset[str]:
    """The setting as VALUE gives it; a type memcli does not know is a usage error."""
    try:
        types = parse_review(value)
    except ConfigError as exc:
        raise UsageError(str(exc)) from None
    unknown = sorted(types - {"all", *NOTE_TYPES})
    if unknown:
        raise UsageError(f"--review: {unknown[0]!r} is not a note type; use none, all or "
                         f"some of {', '.join(NOTE_TYPES)}")
    return types


def set_review(config: Path, types: frozenset[str], *, dry_run: bool = False) -> bool:
    """Write ``review = "…"`` under ``[hooks]`` in CONFIG; whether the file changed."""
    import tomllib

    from memcli.durable import replace_file

    line = f'review = "{review_text(types)}"'
    try:
        text = config.read_text("utf-8")
    except FileNotFoundError:
        text = ""
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {config}: {exc}") from None
    lines = text.splitlines()
    table = None
    for number, current in enumerate(lines):
        found = _TABLE.match(current)
        if found:
            table = found.group(1).strip()
            if table == "hooks":
                at = number + 1
        elif table == "hooks" and _REVIEW.match(current):
            if current.strip() == line:
                return False
            lines[number] = line
            break
    else:
        if "at" in locals():
            lines.insert(at, line)
        else:
            lines.extend([*([""] if lines else []), "[hooks]", line])
    new = "\n".join(lines) + "\n"
    try:
        tomllib.loads(new)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{config}: setting review would leave it invalid TOML ({exc}); "
                          "set `review` under [hooks] by hand") from None
    if not dry_run:
        config.parent.mkdir(parents=True, exist_ok=True)
        replace_file(config, new.encode(), 0o644)
    return True
