"""The bytes of a note memcli writes: a new note in a fixed key order, and an update that
rewrites only the frontmatter keys that changed, every other byte written back as it was.

python-frontmatter's writer sorts keys and strips the body, so a read-modify-write would
change bytes nobody touched (:mod:`memcli.store.notes` splits a note into its frontmatter
text and its body text for this).
"""

from __future__ import annotations

import re
from typing import Any

from memcli.store.frontmatter_yaml import YamlTooComplex, dump_yaml, load_yaml, yaml_error
from memcli.store.notes import BOM, FENCE, Note, simple_meta

# A top-level "key:" line; anything fancier (quoted keys, flow mappings) gets a full re-dump.
# Compiled when a note is first edited (re caches it): reading never needs it.
_KEY_LINE = r"^(?P<key>[A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]|\r?$)"


def render_new_note(meta: dict[str, Any], content: str) -> bytes:
    """The bytes of a note memcli creates: fixed key order, one trailing newline."""
    body = _body_for(content, "\n")
    return f"{FENCE}\n{render_frontmatter(meta)}{FENCE}\n{body}".encode()


def render_frontmatter(meta: dict[str, Any]) -> str:
    """META as frontmatter lines. Plain `key: text` lines when the reader's own fast path
    (simple_meta) reads exactly META back from them, which is what PyYAML writes for such
    values too (a differential test holds the two to the same bytes); anything else goes
    through PyYAML. Rendering 1,000 new notes through PyYAML cost a third of `apply`'s CPU."""
    if all(isinstance(value, str) for value in meta.values()):
        text = "".join(f"{key}: {value}\n" for key, value in meta.items())
        # PyYAML's emitter quotes (and escapes) any character beyond the BMP, an emoji say.
        if max(text) <= "\ufffd" and simple_meta(text) == meta:
            return text
    return dump_yaml(meta)


def render_updated_note(note: Note, changes: dict[str, Any], content: str | None) -> bytes:
    """Rewrite only what changed; unknown keys, untouched keys and an unchanged body stay."""
    nl = note.newline
    if changes:
        frontmatter = _replace_keys(note.frontmatter, note.meta, changes, nl)
    else:
        frontmatter = note.frontmatter
    if content is None or content.strip("\n") == note.content:
        body = note.body
    else:
        body = _body_for(content, nl)
    text = f"{FENCE}{nl}{frontmatter}{FENCE}{nl}{body}"
    return ((BOM if note.bom else "") + text).encode()


def _body_for(content: str, newline: str) -> str:
    lines = content.replace("\r\n", "\n").strip("\n").split("\n")
    return newline.join(lines) + newline


def _replace_keys(frontmatter: str, meta: dict[str, Any], changes: dict[str, Any], nl: str) -> str:
    wanted = {**meta, **changes}
    segments = _segments(frontmatter)
    if segments is not None:
        edited = _edit_segments(segments, changes, nl)
        try:
            reloaded = load_yaml(edited)
        except (yaml_error(), YamlTooComplex, RecursionError):
            reloaded = None
        # Only the changed keys are compared: the untouched lines are byte-identical, and a
        # deep comparison of a person's YAML (an alias bomb, say) could take forever.
        # Keys are compared as text, as meta holds them: `no:` and `on:` load as booleans.
        if (isinstance(reloaded, dict) and [str(k) for k in reloaded] == list(wanted)
                and all(reloaded.get(k) == v for k, v in changes.items())):
            return edited
    return dump_yaml(wanted).replace("\n", nl)


def _segments(frontmatter: str) -> list[tuple[str | None, str]] | None:
    """Split frontmatter into (key, text) runs; None when the layout is too unusual to edit."""
    segments: list[tuple[str | None, str]] = []
    seen: set[str] = set()
    for line in frontmatter.splitlines(keepends=True):
        match = re.match(_KEY_LINE, line)
        if match:
            key = match["key"]
            if key in seen:
                return None
            seen.add(key)
            segments.append((key, line))
        elif line[:1] in (" ", "\t", "#", "-", "\r", "\n") or not line.strip():
            if segments:
                key, text = segments[-1]
                segments[-1] = (key, text + line)
            else:
                segments.append((None, line))
        else:
            return None
    return segments


def _edit_segments(segments: list[tuple[str | None, str]], changes: dict[str, Any], nl: str) -> str:
    out: list[str] = []
    done: set[str] = set()
    for key, text in segments:
        if key is not None and key in changes:
            out.append(dump_yaml({key: changes[key]}).replace("\n", nl) + _trailing_blank(text))
            done.add(key)
        else:
            out.append(text if text.endswith("\n") else text + nl)
    for key, value in changes.items():
        if key not in done:
            out.append(dump_yaml({key: value}).replace("\n", nl))
    return "".join(out)


def _trailing_blank(text: str) -> str:
    """Blank or comment lines that ended a replaced key's run belong to the layout, not the key."""
    lines = text.splitlines(keepends=True)
    tail: list[str] = []
    while len(lines) > 1 and (not lines[-1].strip() or lines[-1].lstrip().startswith("#")):
        tail.insert(0, lines.pop())
    return "".join(tail)
