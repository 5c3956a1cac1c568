"""Whether the value given to a secret-named key (or a password flag) is a credential.

The key already says the value is secret, so any length and any punctuation counts; what
is left out is what is not a value at all: an empty or one-character stand-in, a reference
(``$VAR``, ``${VAR}``, ``%VAR%``, ``<your-key>``, ``settings.API_KEY``, ``db_password``),
a placeholder (``changeme``, ``****``), a type (``str``, ``string``), a path or file name.
"""

from __future__ import annotations

from memcli.safety.redact._base import (
    _FILE_SUFFIX,
    _PLACEHOLDER_WORDS,
    _is_known_example,
    _is_placeholder,
)

# Words that stand where a value would: types in signatures and schemas, YAML scalars.
_NOT_VALUES = frozenset({
    "string", "str", "bool", "boolean", "int", "integer", "number", "none", "null", "nil",
    "true", "false", "undefined", "required", "optional", "any", "object", "bytes", "yes",
    "no", "on", "off", "empty", "unset", "hidden", "masked", "prompt", "secretstr",
    "password", "passwords", "token", "tokens", "secret", "secrets", "env", "environ",
    "getpass", "input", "self", "this",
})
# The words a name of a secret ends in: a letters-only value holding one is a reference to
# another name ("password=db_password", "token=authToken"), not a credential.
_SECRET_WORDS = ("pass", "pwd", "token", "secret", "key", "auth", "cred")


def assigned_like(value: str, quoted: bool) -> bool:
    """Whether ``value`` (the whole value, quotes taken off) is a credential."""
    if len(value) < 4 or value[0] in "$%/~.*=!-[<{#@&":
        return False
    low = value.lower()
    if (low in _PLACEHOLDER_WORDS or low in _NOT_VALUES or _is_placeholder(value)
            or _is_known_example(value) or low.endswith(_FILE_SUFFIX) or len(set(value)) == 1):
        return False
    if value.startswith(("./", "../")) or "{{" in value or "}}" in value:
        return False
    digits = sum(c.isdigit() for c in value)
    letters = sum(c.isascii() and c.isalpha() for c in value)
    other = len(value) - digits - letters
    if not letters:
        return digits >= 6 and not other  # a PIN; "1.2.3" or "8080:80" is not
    if _identifier(value):
        if not quoted and ("_" in value or "." in value) and not digits:
            return False  # a name: db_password, settings.API_KEY, self.token
        if not digits and any(word in low for word in _SECRET_WORDS):
            return False  # another secret's name: authToken, dbPassword
    if not digits and not other:
        return len(value) >= 6
    return True


def _identifier(value: str) -> bool:
    parts = value.split(".")
    return all(p and (p[0].isalpha() or p[0] == "_") and p.replace("_", "a").isalnum()
               for p in parts)
