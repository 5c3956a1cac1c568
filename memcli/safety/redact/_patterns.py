"""The compiled patterns of the structural detectors (PEM blocks, URLs, assignments)."""

from __future__ import annotations

import functools
import re
from typing import Any

from memcli.safety.redact._base import _ASSIGN, _QUOTE


def _sources() -> tuple[dict[str, str], dict[str, str]]:
    """Each pattern's source by attribute name, and the sources of ``env_keys``."""
    # Not possessive: "[A-Z0-9 ]" also matches "PRIVATE KEY" and must give it back.
    pem_begin = (r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
    pem_end = (r"-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----")
    # Rest of the BEGIN line: a key flattened onto one line, or JSON-escaped ("\nMIIE…").
    pem_rest = (r"[A-Za-z0-9+/=\\ \t]*+")
    pem_run = (r"[A-Za-z0-9+/=]{20,}+")
    pem_line = (r"[A-Za-z0-9+/=]++")
    pem_tail = (r"[A-Za-z0-9+/=\\]*+")
    pem_header = (r"(?:Proc-Type|DEK-Info|Comment|Version|Hash|Charset): [^\n]{0,256}+")
    # Anchored on "://" (a literal, so the engine can jump); the scheme is checked
    # separately. The password is greedy, not possessive, so that it ends at the *last*
    # "@" of the authority: "u:p@ss@host" hides "p@ss", not "p".
    url = (r"://(?P<user>[^\s:/?#@\[\]]{0,256}+):(?P<v>[^\s/?#]{1,512})@")
    # The same inside a JSON string that escapes its slashes ("https:\/\/u:p@host").
    url_escaped = (
        r":\\/\\/(?P<user>[^\s:/?#@\[\]\\]{0,256}+):(?P<v>[^\s/?#]{1,512})@"
    )
    # curl -u user:password, wget --user=… --password=… is an assignment already.
    cli_user = (r"-(?:u|-user)(?:[ \t]++|=)(?P<q>['\"]?)(?P<user>[^\s:'\"]{1,128}+)"
                      r":(?P<v>[^\s'\"]{1,256}+)")
    # A .netrc line: "machine h login u password p".
    netrc = (r"login[ \t]++[^\s]{1,256}+[ \t]++password[ \t]++(?P<v>[^\s]{1,512}+)")
    # Docker's config.json and .npmrc hold base64 of "user:password".
    basic_blob = (r"""(?:"auth"[ \t]*:[ \t]*"|_auth[ \t]*=[ \t]*)"""
                        r"(?P<v>[A-Za-z0-9+/]{8,4096}+={0,2}+)")
    scheme = (r"(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,31}\Z")

    # From here on the patterns run on an ASCII-lowercased copy of the text (same
    # offsets): a case-insensitive regex cannot jump to a literal and costs 100+ ms/MB.

    # A quoted value runs to its closing quote (it may hold "#", ";", "&"); a bare one
    # also stops at the punctuation that ends it in YAML flow, JSON or a connection
    # string. Whitespace ends both: a value with spaces is prose.
    value = (
        r"""(?:(?P<q>\\?["'`])(?P<qv>[^\s"'`\\]{1,512}+)"""
        r"""|(?P<v>[^\s"'`,;(){}\[\]<>\\]{1,512}+))"""
    )
    aws_secret = (
        "aws_?secret_?access_?key" + _ASSIGN + _QUOTE
        + r"(?P<v>[a-z0-9/+]{40})(?![a-z0-9/+=])"
    )
    auth_header = (
        "authorization" + _QUOTE + r"[ \t]*[:=][ \t]*" + _QUOTE
        + r"(?P<scheme>bearer|basic|token)[ \t]+(?P<v>[a-z0-9._~+/=-]{8,4096}+)"
    )
    # One regex per keyword, each led by its literal; the keyword must be the last
    # component of the name ("DB_PASSWORD", "dbPassword", not "PASSWORD_FILE").
    env_keys = {
        literal: keyword + _ASSIGN + value
        for literal, keyword in (
            ("pass", "pass(?:word|wd|phrase)?"),
            ("pwd", "pwd"),
            ("token", "token"),
            ("secret", "secret(?:[_-]?(?:access[_-]?)?key)?"),
            # Only "<something>_key" names: the component before "key" is checked by
            # key_owner ("api_key", "accessKey"), so "PRIMARY_KEY=" is left alone.
            ("key", "key"),
        )
    }
    # Searched backwards from a keyword, in a short window that ends at it.
    key_owner = (r"(?:api|access|auth|private|signing|encryption|master|account|client|app"
                 r"|license|webhook|session)[_-]?\Z")
    # Cursors and handles, not credentials ("nextPageToken", "CancellationToken").
    not_secret_token = r"(?:page|cursor|continuation|sync|cancellation|resume)[_-]?\Z"
    # A session value in a Cookie or Set-Cookie header (the pairs are read by
    # _structural._cookies, up to the end of the line).
    cookie = r"(?:set-)?cookie" + _QUOTE + r"[ \t]*:[ \t]*+"
    # A password handed to a client on its command line: "mysql -pS3cret", "sshpass -p x",
    # "redis-cli -a x", "docker login -p x" (which client takes which flag is
    # _structural._CLIENTS), and "--password x" / "--token x" for any command.
    cli_flag = r"-(?P<flag>[pPa])(?P<sep>[ \t]*+)"
    client = ("(?:" + "|".join(sorted(
        ("mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mariadb",
         "mariadb-dump", "sshpass", "redis-cli", "sqlcmd", "mongosh", "mongodump",
         "mongorestore", "twine", "docker", "podman", "nerdctl", "buildah", "skopeo", "helm",
         "oras", "oc", "az", "cf"), key=lambda w: (-len(w), w)))
        + r")(?![a-z0-9_.-])")
    long_flag = (r"--(?:[a-z0-9]{1,24}+-)?(?:password|passwd|pass|pwd|token|secret|api-?key"
                 r"|access-key|secret-key)[ \t]++")
    names = {k: v for k, v in locals().items() if k not in ("value", "env_keys")}
    return names, env_keys


_SOURCES = _sources()


class _Patterns:
    """The patterns by name; each compiles the first time it is used (compiling them all
    costs some 3 ms, and a note without "://", "-u" or "login" never needs most of them)."""

    pem_begin: re.Pattern[str]
    pem_end: re.Pattern[str]
    pem_rest: re.Pattern[str]
    pem_run: re.Pattern[str]
    pem_line: re.Pattern[str]
    pem_tail: re.Pattern[str]
    pem_header: re.Pattern[str]
    url: re.Pattern[str]
    url_escaped: re.Pattern[str]
    cli_user: re.Pattern[str]
    netrc: re.Pattern[str]
    basic_blob: re.Pattern[str]
    scheme: re.Pattern[str]
    aws_secret: re.Pattern[str]
    auth_header: re.Pattern[str]
    key_owner: re.Pattern[str]
    cookie: re.Pattern[str]
    cli_flag: re.Pattern[str]
    client: re.Pattern[str]
    long_flag: re.Pattern[str]
    not_secret_token: re.Pattern[str]
    env_keys: dict[str, re.Pattern[str]]

    def __getattr__(self, name: str) -> Any:
        sources, env_keys = _SOURCES
        value: Any
        if name == "env_keys":
            value = {literal: self.env_key(literal) for literal in env_keys}
        elif name in sources:
            value = re.compile(sources[name])
        else:
            raise AttributeError(name)
        setattr(self, name, value)
        return value

    def env_key(self, literal: str) -> re.Pattern[str]:
        """The assignment pattern of one keyword of ``env_keys``, compiled when first asked
        for: a note that says "token" needs that one, not the other four."""
        compiled: dict[str, re.Pattern[str]] = self.__dict__.setdefault("_env", {})
        pattern = compiled.get(literal)
        if pattern is None:
            pattern = compiled[literal] = re.compile(_SOURCES[1][literal])
        return pattern

    def all(self) -> dict[str, re.Pattern[str]]:
        out = {name: getattr(self, name) for name in _SOURCES[0]}
        out.update((f"env_keys[{k}]", v) for k, v in self.env_keys.items())
        return out


@functools.cache
def _pats() -> _Patterns:
    # Nothing compiles at import: the CLI imports this module on TAB completion.
    return _Patterns()


