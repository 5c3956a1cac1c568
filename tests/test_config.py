"""Configuration from real files: flag > environment > project config > user config > default.

Every test writes real ``config.toml`` files (the user's in $MEMCLI_HOME, the project's in
``<repo>/.memcli/``) and reads the result the way a person would: ``memcli config`` in
process and as a subprocess, and what ``extract`` really sends to a (fake) provider.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import MemEnv
from fakeserver import FakeServer, Step, openai_stream

from memcli.errors import ConfigError
from memcli.settings.provider_registry import PROVIDERS
from memcli.settings.resolve import Flags, resolve

_PROVIDER_VARIABLES = ("MEMCLI_PROVIDER", "MEMCLI_MODEL", "MEMCLI_BASE_URL", "MEMCLI_TIMEOUT",
                       "MEMCLI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY",
                       "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY")
TURN = json.dumps({"role": "user", "content": "Remember that the tests run with make test."})


@pytest.fixture
def layers(memenv: MemEnv, monkeypatch: pytest.MonkeyPatch) -> MemEnv:
    """memenv without inherited provider settings; the project store comes from its default."""
    for name in (*_PROVIDER_VARIABLES, "MEMCLI_PROJECT_STORE"):
        monkeypatch.delenv(name, raising=False)
        memenv.env.pop(name, None)
    (memenv.repo / ".git").mkdir()  # a repository, as git knows one: a .git with HEAD
    (memenv.repo / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return memenv


def user_config(env: MemEnv, text: str) -> Path:
    path = Path(env.env["MEMCLI_HOME"]) / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    return path


def project_config(env: MemEnv, text: str) -> Path:
    """A project config the person trusted (`memcli trust`): an untrusted one may not choose
    the provider, the server or the stores (tests/test_safety.py)."""
    from memcli.settings.trust import trust

    path = env.repo / ".memcli" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")
    trust(Path(env.env["MEMCLI_HOME"]), path)
    return path


def shown(result: Any) -> dict[str, dict[str, Any]]:
    assert result.returncode == 0 if hasattr(result, "returncode") else result.exit_code == 0
    data: dict[str, dict[str, Any]] = json.loads(result.stdout)
    return data


# --------------------------------------------------------------------------- precedence

LEVELS = ("default", "user config", "project config", "environment", "flag")


@pytest.mark.parametrize("top", LEVELS)
def test_each_level_wins_over_every_level_below_it(layers: MemEnv, top: str) -> None:
    """The model is set at every level up to TOP; TOP's value is the one used."""
    rank = LEVELS.index(top)
    env = {**layers.env, "MEMCLI_PROVIDER": "openai"}
    flags = Flags()
    if rank >= 1:
        user_config(layers, '[extract]\nmodel = "from-user"\n')
    if rank >= 2:
        project_config(layers, 'model = "from-project"\n')
    if rank >= 3:
        env["MEMCLI_MODEL"] = "from-env"
    if rank >= 4:
        flags = Flags(model="from-flag")
    settings = resolve(flags, env, layers.repo)
    expected = {"default": PROVIDERS["openai"].default_model, "user config": "from-user",
                "project config": "from-project", "environment": "from-env",
                "flag": "from-flag"}[top]
    assert settings.model == expected
    assert settings.sources["model"].source.startswith(top)


def test_config_files_are_found_from_a_subfolder_and_their_tables_merge(
        layers: MemEnv) -> None:
    user_config(layers, '[memcli]\nprovider = "openai"\n[store]\nlock_timeout = 3\n')
    project_config(layers, '[extract]\ntimeout = 7.5\n')
    deep = layers.repo / "src" / "pkg"
    deep.mkdir(parents=True)
    env = {k: v for k, v in layers.env.items() if k != "MEMCLI_LOCK_TIMEOUT"}
    settings = resolve(Flags(), env, deep)
    assert (settings.provider, settings.lock_timeout, settings.timeout) == ("openai", 3.0, 7.5)
    assert settings.project_root == layers.repo
    assert settings.project_store == layers.repo / ".memcli" / "memory"


def test_a_relative_store_path_in_a_config_file_is_taken_from_the_working_folder_and_tilde_is_home(
        layers: MemEnv) -> None:
    user_config(layers, 'user_store = "~/notes/memory"\n')
    project_config(layers, 'project_store = "mem"\n')
    settings = resolve(Flags(), layers.env, layers.repo, home=layers.root / "home")
    assert settings.user_store == layers.root / "home" / "notes" / "memory"
    assert settings.project_store == layers.repo / "mem"


def test_the_clock_comes_from_the_caller_unless_memcli_now_fixes_it(layers: MemEnv) -> None:
    moment = datetime(2031, 5, 6, 7, 8, 9, tzinfo=UTC)
    free = {k: v for k, v in layers.env.items() if k != "MEMCLI_NOW"}
    assert resolve(Flags(), free, layers.repo, clock=lambda: moment).timestamp() == (
        "2031-05-06T07:08:09Z")
    fixed = resolve(Flags(), layers.env, layers.repo, clock=lambda: moment)
    assert fixed.timestamp() == layers.env["MEMCLI_NOW"]
    assert fixed.moment().year == 2026


@pytest.mark.parametrize(("where", "text", "message"), [
    ("project", 'api_key = "sk-abc"\n', "project config is committed"),
    ("user", "model = \n", "is not valid TOML"),
    ("project", b"model = '\xff'\n", "is not valid TOML"),
])
def test_a_bad_config_file_is_one_line_and_status_2_for_every_command(
        layers: MemEnv, where: str, text: str | bytes, message: str) -> None:
    write = project_config if where == "project" else user_config
    path = write(layers, "")
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")
    with pytest.raises(ConfigError, match=message):
        resolve(Flags(), layers.env, layers.repo)
    result = layers.call("config")
    assert result.returncode == 2
    assert result.stderr.startswith("memcli: error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1 and result.stdout == ""


@pytest.mark.parametrize(("text", "message"), [
    ("timeout = 'soon'\n", "config.toml:1: timeout must be a number"),
    ("[extract]\nprovider = 'mistral'\n", "config.toml:2: unknown provider 'mistral'"),
])
def test_a_bad_extraction_value_in_a_real_file_stops_only_extraction(
        layers: MemEnv, text: str, message: str) -> None:
    user_config(layers, text)
    settings = resolve(Flags(), layers.env, layers.repo)
    with pytest.raises(ConfigError, match=message):
        settings.require_extraction()
    shown = layers.call("config")
    assert shown.returncode == 2 and message in shown.stderr
    listed = layers.call("show")
    assert listed.returncode == 0 and message in listed.stderr
    extracted = layers.call("extract", input='{"role": "user", "content": "hi"}\n')
    assert extracted.returncode == 2
    assert extracted.stderr.startswith("memcli: error: ") and message in extracted.stderr


def test_a_key_that_is_no_setting_is_named_with_its_line(layers: MemEnv) -> None:
    # A typo (`provdier = "openai"`) was left out without a word: the rules ran instead.
    path = user_config(layers, '[extract]\nprovdier = "openai"\n')
    result = layers.call("show")
    assert result.returncode == 0
    assert result.stderr.startswith(f"memcli: warning: {path}:2: 'provdier' is not a memcli "
                                    "setting and is left out; the settings are project_store,")
    assert result.stderr.count("\n") == 1


def test_a_boolean_is_no_number_of_seconds(layers: MemEnv) -> None:
    # float(True) is 1.0: `timeout = true` gave extraction a one-second deadline.
    user_config(layers, "timeout = true\n")
    with pytest.raises(ConfigError, match=r"config\.toml:1: timeout must be a number"):
        resolve(Flags(), layers.env, layers.repo).require_extraction()


def test_a_bad_lock_timeout_in_a_file_names_the_file_and_line(
        layers: MemEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MEMCLI_LOCK_TIMEOUT", raising=False)
    layers.env.pop("MEMCLI_LOCK_TIMEOUT")
    path = user_config(layers, "[store]\nlock_timeout = 'ten'\n")
    result = layers.call("show")
    assert result.returncode == 2
    assert result.stderr == (f"memcli: error: {path}:2: lock_timeout must be a number of "
                             "seconds, not 'ten'\n")


def test_a_bad_lock_timeout_names_its_variable(layers: MemEnv) -> None:
    result = layers.call("show", env={"MEMCLI_LOCK_TIMEOUT": "ten"})
    assert result.returncode == 2
    assert result.stderr == ("memcli: error: lock_timeout must be a number of seconds, not "
                             "'ten' (from environment MEMCLI_LOCK_TIMEOUT)\n")


def test_an_invalid_memcli_now_is_refused_before_anything_runs(layers: MemEnv) -> None:
    result = layers.call("show", env={"MEMCLI_NOW": "yesterday"})
    assert result.returncode == 2
    assert "MEMCLI_NOW 'yesterday' is not an ISO date-time" in result.stderr


# --------------------------------------------------------------------------- the CLI


def test_memcli_config_in_process_shows_each_value_and_its_level(layers: MemEnv) -> None:
    user_config(layers, 'provider = "openai"\nmodel = "from-user"\ntimeout = 12\n')
    project_config(layers, '[extract]\nmodel = "from-project"\n')
    data = shown(layers.invoke("config", "--json", env={"MEMCLI_TIMEOUT": "30"}))
    assert data["provider"] == {"value": "openai", "source": "user config"}
    assert data["model"] == {"value": "from-project", "source": "project config"}
    assert data["timeout"] == {"value": "30", "source": "environment MEMCLI_TIMEOUT"}
    assert data["lock_timeout"]["source"] == "environment MEMCLI_LOCK_TIMEOUT"


def test_memcli_config_as_a_subprocess_reads_the_same_files(layers: MemEnv) -> None:
    user_config(layers, '[memcli]\nprovider = "anthropic"\nmodel = "from-user"\n')
    project_config(layers, 'base_url = "http://127.0.0.1:9/"\n')
    data = shown(layers.run("config", "--json"))
    assert data["provider"]["value"] == "anthropic"
    assert data["model"] == {"value": "from-user", "source": "user config"}
    assert data["base_url"] == {"value": "http://127.0.0.1:9/", "source": "project config"}
    data = shown(layers.run("config", "--json", env={"ANTHROPIC_BASE_URL": "http://h:1"}))
    assert data["base_url"] == {"value": "http://h:1", "source": "environment ANTHROPIC_BASE_URL"}


def test_a_flag_beats_every_file_and_variable_in_a_subprocess(layers: MemEnv) -> None:
    user_config(layers, 'provider = "openai"\nmodel = "from-user"\n')
    project_config(layers, 'model = "from-project"\n')
    result = layers.run("extract", "--model", "from-flag", "--verbose", "--show-prompt",
                        input=TURN, env={"MEMCLI_MODEL": "from-env"})
    assert result.returncode == 0, result.stderr
    assert "model = from-flag    # flag" in result.stderr


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_memcli_config_shows_the_registry_defaults_instead_of_unset(
        layers: MemEnv, provider: str) -> None:
    spec = PROVIDERS[provider]
    text = layers.invoke("config", env={"MEMCLI_PROVIDER": provider}).stdout
    # A local server's default model is the first it lists: asked for at extraction.
    model = spec.default_model or "(unset)"
    assert f"model = {model}    # default" in text
    assert f"base_url = {spec.default_base_url}    # default" in text


def test_the_model_config_shows_is_the_model_extract_sends(
        layers: MemEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    with FakeServer() as server:
        server.script(Step(body=openai_stream(['{"operations": []}'])))
        user_config(layers, f'provider = "openai"\nbase_url = "{server.url}/v1"\n')
        data = shown(layers.invoke("config", "--json"))
        result = layers.invoke("extract", input=TURN)
        assert result.exit_code == 0, result.stderr
        sent = server.requests[0]
    assert data["model"]["source"] == "default"
    assert sent.json()["model"] == data["model"]["value"] == PROVIDERS["openai"].default_model
    assert sent.path == "/v1/chat/completions"


def test_rules_need_no_model_and_config_says_so(layers: MemEnv) -> None:
    data = shown(layers.invoke("config", "--json"))
    assert data["provider"] == {"value": "rules", "source": "default"}
    assert data["model"]["value"] is None and data["base_url"]["value"] is None
