"""The person's own agent CLI as the extractor: one headless run, no tools, under the deadline.

Each agent is started the way its documentation gives for scripts (docs/providers.md lists
the sources): the prompt on stdin where the CLI reads it there, its JSON output format, the
small model by default where it has one, and no tools it could run:

- ``claude -p --output-format json --model haiku --tools "" --strict-mcp-config
  --max-turns 1`` (no built-in tool, no MCP server, one turn); prompt on stdin.
- ``codex exec --json --sandbox read-only --skip-git-repo-check --ephemeral -``: Codex has
  no switch that takes its shell away; the read-only sandbox keeps it from writing or
  reaching the network, and ``exec`` never asks for approval. Prompt on stdin (``-``).
- ``gemini -p INSTRUCTION --output-format json --model gemini-2.5-flash``, the prompt piped
  as its input: headless Gemini CLI leaves out every tool that needs approval (no
  ``--yolo``, the default approval mode).
- ``copilot -p PROMPT --output-format json --no-ask-user --deny-tool shell --deny-tool
  write``: Copilot CLI takes the prompt as an argument only (so the prompt must fit one
  argument); without ``--allow-all-tools`` it runs no tool that needs approval, and the two
  that could change anything are denied outright.

The child's environment is the person's, plus
:data:`~memcli.settings.provider_registry.CHILD_MARKER`: the agent's own hooks run ``memcli
hook …`` again, which sees the marker and does nothing, so an extraction never queues
another. One run per call, never retried here: a retry would
be a second paid request, and the hook queue already runs a failed job again.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess

from memcli.errors import ConfigError, ProviderError
from memcli.providers._types import Completion, Prompt, ProviderSettings
from memcli.providers.agent_replies import READERS
from memcli.settings.provider_registry import AGENT_CLIS, CHILD_MARKER, AgentCli

# More output than any answer of 4,096 tokens wrapped in a CLI's JSON events: a CLI that
# prints this much is looping, and memcli stops reading (the process is killed).
MAX_OUTPUT_BYTES = 8 * 1024 * 1024
# Linux refuses one argument longer than 128 KiB (MAX_ARG_STRLEN): Copilot CLI's prompt.
MAX_ARGUMENT_BYTES = 128 * 1024 - 1
# Gemini CLI reads piped input as the context of its -p instruction.
GEMINI_INSTRUCTION = ("Follow the instructions in the input above exactly and answer with "
                      "the JSON object only.")


def argv(cli: AgentCli, model: str, prompt_text: str) -> list[str]:
    """The command line that runs CLI headless (the executable's name first)."""
    model_args = ["--model", model] if model else []
    if cli.name == "claude-code":
        return [cli.executable, "-p", "--output-format", "json", *model_args, "--tools", "",
                "--strict-mcp-config", "--max-turns", "1"]
    if cli.name == "codex":
        return [cli.executable, "exec", "--json", "--sandbox", "read-only",
                "--skip-git-repo-check", "--ephemeral", *(["-m", model] if model else []), "-"]
    if cli.name == "gemini":
        return [cli.executable, "-p", GEMINI_INSTRUCTION, "--output-format", "json",
                *model_args]
    return [cli.executable, "-p", prompt_text, "--output-format", "json", "--no-ask-user",
            "--deny-tool", "shell", "--deny-tool", "write", *model_args]


def complete(prompt: Prompt, settings: ProviderSettings) -> Completion:
    """Run the agent CLI of SETTINGS once on PROMPT; its answer, or a one-line error."""
    cli = AGENT_CLIS[settings.provider]
    if settings.timeout <= 0:
        raise ConfigError(f"timeout must be more than 0 seconds, not {settings.timeout}")
    text = f"{prompt.system.rstrip()}\n\n{prompt.user}"
    command = argv(cli, settings.model.strip(), text)
    if cli.name == "copilot" and len(text.encode("utf-8")) > MAX_ARGUMENT_BYTES:
        raise ProviderError(f"the prompt is {len(text.encode('utf-8')):,} bytes, more than "
                            f"{cli.label} takes in its -p argument; use --last-turn, or "
                            "another --provider")
    found = shutil.which(cli.executable, path=settings.env.get("PATH", os.defpath))
    if found is None:
        raise ProviderError(f"{cli.label} is not installed: `{cli.executable}` is not on "
                            f"PATH; install it, or choose another --provider")
    env = {**settings.env, CHILD_MARKER: "1"}
    stdin = b"" if cli.name == "copilot" else text.encode("utf-8")
    stdout, stderr, status = _run([found, *command[1:]], stdin, env, settings, cli)
    answer = READERS[cli.name](cli, stdout, stderr, status)
    return Completion(text=answer.text, model=answer.model or settings.model or cli.executable,
                      input_tokens=answer.input_tokens, output_tokens=answer.output_tokens,
                      attempts=1, json_mode="none", cost_usd=answer.cost_usd)


def _run(command: list[str], stdin: bytes, env: dict[str, str], settings: ProviderSettings,
         cli: AgentCli) -> tuple[str, str, int]:
    """Run COMMAND to its end within the timeout; its stdout, stderr and exit status."""
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=settings.cwd, start_new_session=True)
    except OSError as exc:
        raise ProviderError(f"cannot start {cli.label} ({command[0]}): "
                            f"{exc.strerror or exc}") from None
    try:
        out, err = process.communicate(stdin, timeout=settings.timeout)
    except subprocess.TimeoutExpired:
        _kill(process)
        raise ProviderError(f"{cli.label} gave no answer within the {settings.timeout:g} s "
                            "timeout (it was stopped); raise --timeout for a slow "
                            "model") from None
    except BaseException:
        _kill(process)
        raise
    if len(out) > MAX_OUTPUT_BYTES:
        raise ProviderError(f"{cli.label} printed more than {MAX_OUTPUT_BYTES // 2**20} MiB; "
                            "memcli did not read it")
    return (out.decode("utf-8", "replace"), err.decode("utf-8", "replace")[-4000:],
            process.returncode)


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Stop the CLI and whatever it started (its own process group)."""
    with contextlib.suppress(OSError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        process.kill()
    process.communicate()
