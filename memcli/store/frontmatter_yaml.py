"""PyYAML as a note's frontmatter is read and written: memcli's loader and dumper, and the
limits that make a YAML bomb a broken note rather than a hang.

Imported when first needed: reading notes whose frontmatter is plain `key: text` lines (the
common case, :func:`memcli.store.notes.simple_meta`) never loads PyYAML.
"""

from __future__ import annotations

import functools
import re
from types import ModuleType
from typing import Any

_TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
_BOOL_TAG = "tag:yaml.org,2002:bool"
_BOOL = r"^(?:true|True|TRUE|false|False|FALSE)$"  # compiled with the YAML loader


@functools.cache
def _yaml() -> tuple[ModuleType, Any, Any]:
    """PyYAML and memcli's loader and dumper, imported on first use: reading notes whose
    frontmatter is plain `key: text` lines (the common case) never needs them."""
    import yaml

    class Loader(yaml.CSafeLoader):
        """Safe loader that keeps timestamps as the strings a person wrote."""

    class Dumper(yaml.CSafeDumper):
        """Safe dumper that does not quote ISO timestamps (they are plain strings here)."""

    Loader.yaml_implicit_resolvers = _without_tags(
        yaml.CSafeLoader.yaml_implicit_resolvers, _BOOL_TAG
    )
    # YAML 1.1 reads `no`, `on`, `yes` and `off` as booleans, which would turn a person's
    # `no:` key into False; only true and false are booleans here (as in YAML 1.2).
    Loader.add_implicit_resolver(_BOOL_TAG, re.compile(_BOOL), list("tTfF"))
    Dumper.yaml_implicit_resolvers = _without_tags(yaml.CSafeDumper.yaml_implicit_resolvers)
    return yaml, Loader, Dumper


def yaml_error() -> type[Exception]:
    """PyYAML's error class, for except clauses (they are evaluated only when raising)."""
    error: type[Exception] = _yaml()[0].YAMLError
    return error


def _without_tags(
    resolvers: dict[Any, list[tuple[str, Any]]], *also: str
) -> dict[Any, list[tuple[str, Any]]]:
    dropped = {_TIMESTAMP_TAG, *also}
    return {k: [r for r in v if r[0] not in dropped] for k, v in resolvers.items()}


class YamlTooComplex(ValueError):
    """YAML whose value would take too long to walk (an alias bomb, deep nesting)."""


def load_yaml(text: str) -> Any:
    """TEXT's value; raises YamlTooComplex rather than return a value that expands too far."""
    yaml, loader, _ = _yaml()
    value = yaml.load(text, Loader=loader)
    if isinstance(value, (dict, list)) and _too_complex(value):
        raise YamlTooComplex(f"the YAML nests too deeply or expands (aliases) to more than "
                             f"{MAX_YAML_NODES} values")
    return value


def dump_yaml(data: dict[str, Any]) -> str:
    yaml, _, dumper = _yaml()
    return str(yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False,
                         width=10**9))


# The YAML loader shares aliased nodes, so loading a "billion laughs" is cheap; what blows up
# is anything that walks the value afterwards (JSON output, comparisons, a deep copy). A
# frontmatter that would take more than this many steps to walk is a broken note for every
# command: real frontmatter has a few dozen values.
MAX_YAML_NODES = 10_000
MAX_YAML_DEPTH = 64


def _too_complex(value: dict[Any, Any] | list[Any]) -> bool:
    """True when walking VALUE would visit too many values (aliases) or go too deep."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_YAML_NODES or depth > MAX_YAML_DEPTH:
            return True
        children = value.values() if isinstance(value, dict) else value
        seen += len(children)
        stack.extend((child, depth + 1) for child in children
                     if isinstance(child, (list, dict)))
    return seen > MAX_YAML_NODES
