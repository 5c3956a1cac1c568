"""Which project configs the person trusts, like direnv's `allow` and mise's `trust`.

A repository is untrusted input: its ``.memcli/config.toml`` may not decide where an API key
is sent (``provider``, ``base_url``, ``model``) or where the stores live (``user_store``, a
``project_store`` outside the project) unless the person ran ``memcli trust`` in it. A trust
is recorded in the user's memcli folder (``trust.json``: the config's path and the SHA-256 of
its bytes), so a config that changes after it was trusted is untrusted again until the
person looks at it and trusts it anew.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from memcli.errors import NotFoundError
from memcli.paths import resolved
from memcli.settings.config_file import read_config

TRUST_NAME = "trust.json"
# Project settings that need a trust: where a key goes, which key, where the stores are.
# review_expiry_days: a checkout that shortened it would have the person's next review take
# every waiting proposal out of the inbox.
GUARDED_KEYS = frozenset({"provider", "base_url", "model", "user_store", "project_store",
                          "teams", "review_expiry_days"})
UNTRUSTED_HINT = "the project config is not trusted; `memcli trust` uses it"


@dataclass(frozen=True)
class Trusted:
    config: str
    sha256: str


@dataclass(frozen=True)
class TrustedNow(Trusted):
    """A trust just given, with what it lets the config decide (``key = value``), so that
    the person sees what they trusted, as it was read, not only what they looked at."""

    decides: tuple[str, ...] = ()


def digest(data: bytes) -> str:
    # Imported here: every command loads this module to learn GUARDED_KEYS, and only a
    # project config with a guarded key is hashed (_hashlib costs 1.5 ms).
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _path(user_home: Path) -> Path:
    return user_home / TRUST_NAME


def load(user_home: Path) -> dict[str, str]:
    """Trusted config paths and the digest each was trusted with; unreadable is empty."""
    try:
        data = json.loads(_path(user_home).read_bytes())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}


def is_trusted(user_home: Path, config: Path, data: bytes) -> bool:
    return load(user_home).get(str(resolved(config))) == digest(data)


def trust(user_home: Path, config: Path) -> TrustedNow:
    """Trust CONFIG as it is now; it is read as every command reads it (a regular file, no
    link, a few KiB, valid TOML, no API key), so that nothing else gets trusted."""
    found = read_config(config, allow_secrets=False, untrusted=True)
    if found.origin is None:
        raise NotFoundError(f"there is no project config at {config} to trust")
    _known_provider(config, found.get("provider"))
    records = load(user_home)
    key = str(resolved(config))
    records[key] = digest(found.data)
    _save(user_home, records)
    decides = tuple(f"{name} = {found[name]!r}" for name in sorted(GUARDED_KEYS & found.keys()))
    return TrustedNow(key, records[key], decides)


def _known_provider(config: Path, provider: object) -> None:
    """A config naming a provider memcli does not know is refused, not trusted: trusted, it
    would fail every extraction later, far from this command."""
    from memcli.errors import ConfigError
    from memcli.settings.provider_registry import EXTRACTORS

    if provider is not None and str(provider).strip().lower() not in EXTRACTORS:
        raise ConfigError(f"{config} sets provider = {str(provider)[:40]!r}, which memcli does "
                          f"not know (use {', '.join(EXTRACTORS)}); fix it and run "
                          "`memcli trust` again (nothing was trusted)")


def revoke(user_home: Path, config: Path) -> bool:
    records = load(user_home)
    found = records.pop(str(resolved(config)), None) is not None
    if found:
        _save(user_home, records)
    return found


def listed(user_home: Path) -> list[Trusted]:
    return [Trusted(k, v) for k, v in sorted(load(user_home).items())]


def _save(user_home: Path, records: dict[str, str]) -> None:
    from memcli.durable import replace_file

    user_home.mkdir(parents=True, exist_ok=True, mode=0o700)
    replace_file(_path(user_home), json.dumps(records, indent=1, sort_keys=True).encode(),
                 0o600)

