"""What each agent CLI prints in its headless mode, read into an answer or a one-line error.

The shapes are the documented ones (the sources are listed in docs/providers.md):

- Claude Code, ``claude -p --output-format json``: one ``result`` object: ``type``,
  ``subtype`` ("success" or an ``error_…``), ``is_error``, ``result`` (the answer, or the
  error's words), ``session_id``, ``total_cost_usd``, ``usage`` (``input_tokens``,
  ``output_tokens``, cache counts) and ``modelUsage`` by model.
- Codex, ``codex exec --json``: JSON Lines events: ``thread.started``, ``turn.started``,
  ``item.completed`` whose ``item`` is an ``agent_message`` with ``text``, then
  ``turn.completed`` with ``usage`` (``input_tokens``, ``cached_input_tokens``,
  ``output_tokens``), or ``turn.failed`` with ``error.message``; ``error`` with ``message``.
- Gemini CLI, ``gemini -p … --output-format json``: one object: ``response``, ``stats``
  (``models`` by name, each with ``tokens``: ``prompt``, ``candidates``, …) and, when the
  request failed, ``error`` (``type``, ``message``, ``code``).
- GitHub Copilot CLI, ``copilot -p … --output-format json``: JSON Lines events; the answer is
  the ``assistant.message`` event's ``data.content``, the last event a ``result``.

Every failure becomes a :class:`~memcli.errors.ProviderError` whose message names the CLI,
quotes its words (cut to one line) and says what to do.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from memcli.errors import ProviderError
from memcli.providers._failures import brief
from memcli.settings.provider_registry import AgentCli


@dataclass
class AgentAnswer:
    text: str
    model: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


# Words that say which failure it was, in the CLIs' own messages: "Invalid API key · Please
# run /login", "Not logged in", Gemini's auth error (code 41); "You've hit your limit ·
# resets 7pm", "Claude AI usage limit reached|…", "You have exhausted your capacity on this
# model", "insufficient_quota"; "rate_limit_error", "429", "Too Many Requests".
_SIGN_IN = ("/login", "log in", "logged in", "login", "sign in", "signed in", "authenticat",
            "api key", "unauthorized", "401", "auth method", "credentials")
# "You have exhausted your capacity" is Gemini's spent quota; a bare RESOURCE_EXHAUSTED with
# "No capacity available for model" is its servers being busy, a rate limit.
_QUOTA = ("usage limit", "hit your limit", "quota", "exhausted your", "insufficient_quota",
          "out of credits", "credit balance", "billing", "premium requests")
_RATE = ("rate limit", "rate_limit", "ratelimit", "429", "too many requests", "overloaded",
         "resource_exhausted", "no capacity")


def failure(cli: AgentCli, said: str, *, code: Any = None) -> ProviderError:
    """The one-line error for what the CLI SAID when it failed."""
    words = brief(said, 200) or "(no message)"
    low = said.lower()
    if (cli.name == "gemini" and code == 41) or any(w in low for w in _SIGN_IN):
        return ProviderError(f"{cli.label} is not signed in ({words}); {cli.login}, or "
                             "choose another --provider")
    if any(w in low for w in _QUOTA):
        return ProviderError(f"{cli.label}'s usage quota is spent ({words}); wait until it "
                             "resets, or choose another --provider")
    if any(w in low for w in _RATE):
        return ProviderError(f"{cli.label} is rate-limited ({words}); try again later")
    return ProviderError(f"{cli.label} failed: {words}")


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _objects(stdout: str) -> Iterator[dict[str, Any]]:
    """The JSON objects of a JSON Lines output; other lines (a warning, a banner) skipped."""
    for line in stdout.splitlines():
        value = _loads(line.strip()) if line.strip().startswith("{") else None
        if isinstance(value, dict):
            yield value


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _cost(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _not_json(cli: AgentCli, stdout: str, stderr: str) -> ProviderError:
    said = stderr.strip() or stdout.strip()
    return ProviderError(f"{cli.label} printed no {cli.name} JSON output: "
                         f"{brief(said, 160) or '(nothing)'}; is `{cli.executable}` the "
                         f"{cli.label} command line?")


def read_claude(cli: AgentCli, stdout: str, stderr: str, status: int) -> AgentAnswer:
    data = _loads(stdout.strip())
    if not isinstance(data, dict):
        # stream-json, or a line of warning before the object: the last result object.
        results = [o for o in _objects(stdout) if o.get("type") == "result"]
        data = results[-1] if results else None
    if not isinstance(data, dict):
        raise failure(cli, stderr or stdout) if status else _not_json(cli, stdout, stderr)
    result = data.get("result")
    if data.get("is_error") or status or data.get("subtype") not in (None, "success"):
        said = result if isinstance(result, str) and result.strip() else \
            f"{data.get('subtype') or 'error'} {stderr.strip()}"
        raise failure(cli, said)
    if not isinstance(result, str):
        raise ProviderError(f"{cli.label}'s JSON has no result text; got "
                            f"{brief(stdout, 120)}")
    usage = _dict(data.get("usage"))
    inputs = [_count(usage.get(key)) for key in
              ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")]
    models = data.get("modelUsage")
    model = next(iter(models), None) if isinstance(models, dict) and models else None
    return AgentAnswer(result, model if isinstance(model, str) else None,
                       sum(n for n in inputs if n) if inputs[0] is not None else None,
                       _count(usage.get("output_tokens")), _cost(data.get("total_cost_usd")))


def read_codex(cli: AgentCli, stdout: str, stderr: str, status: int) -> AgentAnswer:
    answer: AgentAnswer | None = None
    errors: list[str] = []
    finished = False
    for event in _objects(stdout):
        kind = event.get("type")
        item = _dict(event.get("item"))
        if kind == "item.completed" and item.get("type") in ("agent_message",
                                                              "assistant_message"):
            text = item.get("text")
            if isinstance(text, str):
                answer = AgentAnswer(text)
        elif kind == "turn.completed":
            finished = True
            usage = _dict(event.get("usage"))
            if answer is not None:
                answer.input_tokens = _count(usage.get("input_tokens"))
                answer.output_tokens = _count(usage.get("output_tokens"))
        elif kind == "turn.failed":
            error = event.get("error")
            message = error.get("message") if isinstance(error, dict) else None
            errors.append(message if isinstance(message, str) else json.dumps(error))
        elif kind == "error" and isinstance(event.get("message"), str):
            errors.append(event["message"])
    # An "error" event may be a notice the CLI recovered from ("Reconnecting… 1/5"): an
    # answer in a turn that completed is the answer.
    if answer is not None and (finished or not errors):
        return answer
    if errors:
        raise failure(cli, errors[-1])
    if status:
        raise failure(cli, stderr or stdout)
    raise _not_json(cli, stdout, stderr)


def read_gemini(cli: AgentCli, stdout: str, stderr: str, status: int) -> AgentAnswer:
    data = _loads(stdout.strip())
    if not isinstance(data, dict):
        # A line printed before the object ("Loaded cached credentials."): the last object.
        found = list(_objects(stdout))
        start = stdout.find("{")
        data = _loads(stdout[start:]) if start >= 0 else None
        if not isinstance(data, dict):
            data = found[-1] if found else None
    if not isinstance(data, dict):
        raise failure(cli, stderr or stdout) if status else _not_json(cli, stdout, stderr)
    error = data.get("error")
    if isinstance(error, dict) and error:
        message = error.get("message")
        raise failure(cli, message if isinstance(message, str) else json.dumps(error),
                      code=error.get("code"))
    response = data.get("response")
    if not isinstance(response, str):
        if status:
            raise failure(cli, stderr or stdout)
        raise ProviderError(f"{cli.label}'s JSON has no response text; got "
                            f"{brief(stdout, 120)}")
    answer = AgentAnswer(response)
    stats = _dict(data.get("stats"))
    models = _dict(stats.get("models"))
    for name, figures in models.items():
        tokens = figures.get("tokens") if isinstance(figures, dict) else None
        if isinstance(tokens, dict):
            answer.model = name
            answer.input_tokens = (answer.input_tokens or 0) + (_count(tokens.get("prompt")) or 0)
            answer.output_tokens = ((answer.output_tokens or 0)
                                    + (_count(tokens.get("candidates")) or 0))
    return answer


def read_copilot(cli: AgentCli, stdout: str, stderr: str, status: int) -> AgentAnswer:
    answer: AgentAnswer | None = None
    errors: list[str] = []
    events = list(_objects(stdout))
    for event in events:
        kind = str(event.get("type") or "")
        data = _dict(event.get("data"))
        if kind == "assistant.message" and isinstance(data.get("content"), str):
            answer = AgentAnswer(data["content"])
        elif "error" in kind:
            message = data.get("message", event.get("message"))
            errors.append(message if isinstance(message, str) else json.dumps(event))
    if answer is not None and answer.text.strip():
        return answer
    if errors:
        raise failure(cli, errors[-1])
    if status or not events:
        if status:
            raise failure(cli, stderr or stdout)
        raise _not_json(cli, stdout, stderr)
    raise ProviderError(f"{cli.label} printed no assistant.message event; got "
                        f"{brief(stdout, 120)}")


Reader = Callable[[AgentCli, str, str, int], AgentAnswer]

READERS: Mapping[str, Reader] = {
    "claude-code": read_claude,
    "codex": read_codex,
    "gemini": read_gemini,
    "copilot": read_copilot,
}
