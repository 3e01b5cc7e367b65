"""Settings precedence (CLI > env > config.yaml > defaults) and config errors that say
which file, which field and what was expected — and never a key in config.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from cvagent_cli.errors import ConfigError
from cvagent_cli.settings import (
    ENV_VARS,
    Settings,
    config_path,
    describe_config_sources,
    load_settings,
    load_settings_with_sources,
)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch) -> Path:
    """A private CVAGENT_HOME and no CVAGENT_* variables from the developer's shell."""
    monkeypatch.setenv("CVAGENT_HOME", str(tmp_path))
    for var in ENV_VARS:
        monkeypatch.delenv(var, raising=False)
    return tmp_path


def write_config(text: str) -> Path:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_defaults():
    s = load_settings()
    assert s == Settings()
    assert (
        s.model,
        s.api_base,
        s.timeout,
        s.max_retries,
        s.max_steps,
        s.capability,
        s.temperature,
    ) == (None, None, 120, 4, 10, "base", None)


def test_config_path_is_under_cvagent_home(isolated):
    assert config_path() == isolated / "config" / "config.yaml"


def test_config_file_is_read():
    write_config("model: openai/gpt-4o-mini\ntimeout: 30\nmax_steps: 5\ntemperature: 0.2\n")
    s = load_settings()
    assert (s.model, s.timeout, s.max_steps, s.temperature) == ("openai/gpt-4o-mini", 30, 5, 0.2)


def test_env_beats_file_and_cli_beats_env(monkeypatch):
    write_config("model: from-file\napi_base: http://file/v1\ntimeout: 30\nmax_retries: 1\n")
    monkeypatch.setenv("CVAGENT_MODEL", "from-env")
    monkeypatch.setenv("CVAGENT_TIMEOUT", "45")
    s = load_settings()
    assert (s.model, s.api_base, s.timeout, s.max_retries) == (
        "from-env",
        "http://file/v1",
        45.0,
        1,
    )
    s = load_settings(model="from-cli", api_base="http://cli/v1", timeout=5, max_retries=0)
    assert (s.model, s.api_base, s.timeout, s.max_retries) == ("from-cli", "http://cli/v1", 5, 0)


def test_none_cli_values_mean_not_given(monkeypatch):
    monkeypatch.setenv("CVAGENT_API_BASE", "http://env/v1")
    s = load_settings(model=None, api_base=None, timeout=None, capability=None)
    assert s.api_base == "http://env/v1" and s.timeout == 120 and s.capability == "base"


def test_empty_env_values_are_ignored(monkeypatch):
    write_config("model: from-file\n")
    monkeypatch.setenv("CVAGENT_MODEL", "  ")
    assert load_settings().model == "from-file"


def test_explicit_config_file_and_environ(tmp_path):
    other = tmp_path / "elsewhere.yaml"
    other.write_text("model: a\n")
    s = load_settings(config_file=other, environ={"CVAGENT_TIMEOUT": "9"})
    assert (s.model, s.timeout) == ("a", 9)


def test_empty_config_file_gives_defaults():
    write_config("# nothing here yet\n")
    assert load_settings() == Settings()


def test_bad_yaml_names_the_file_and_line():
    path = write_config("model: openai/gpt-4o-mini\ntimeout: [30\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = info.value.message
    assert str(path) in message and "not valid YAML" in message and "line" in message


def test_top_level_must_be_a_mapping():
    path = write_config("- model\n- timeout\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert str(path) in info.value.message and "list" in info.value.message


def test_unknown_key_is_named_with_a_suggestion():
    path = write_config("modle: openai/gpt-4o-mini\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "'modle'" in info.value.message and str(path) in info.value.message
    assert "did you mean 'model'" in info.value.hint


@pytest.mark.parametrize("key", ["api_key", "API_KEY", "openai_api_key", "token"])
def test_keys_are_rejected_in_the_config_file(key):
    write_config(f"model: openai/gpt-4o-mini\n{key}: sk-should-not-be-here\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert key in info.value.message
    assert "environment variable" in info.value.hint and "OPENAI_API_KEY" in info.value.hint
    assert "sk-should-not-be-here" not in str(info.value)


def test_wrong_type_in_file_is_explained_in_plain_words():
    path = write_config("timeout: soon\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = info.value.message
    assert message == f"'timeout' in {path} must be a number, got 'soon'"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("timeout: 0\n", "must be greater than 0"),
        ("max_steps: 0\n", "must be at least 1"),
        ("max_retries: 1.5\n", "must be a whole number"),
        ("temperature: 5\n", "must be at most 2"),
        ("model: 12\n", "must be text"),
    ],
)
def test_out_of_range_values(text, expected):
    write_config(text)
    with pytest.raises(ConfigError, match=expected):
        load_settings()


def test_bad_env_value_names_the_variable(monkeypatch):
    monkeypatch.setenv("CVAGENT_TIMEOUT", "fast")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "CVAGENT_TIMEOUT" in info.value.message and "a number" in info.value.message


def test_bad_cli_value_names_the_option():
    with pytest.raises(ConfigError, match="--max-steps"):
        load_settings(max_steps=-1)


def test_unknown_cli_override_is_rejected():
    with pytest.raises(ConfigError, match="unknown setting 'steps'"):
        load_settings(steps=3)


def test_settings_model_forbids_extra_fields():
    with pytest.raises(ValidationError):
        Settings(api_key="sk-nope")  # type: ignore[call-arg]


def test_describe_config_sources_mentions_every_source():
    text = describe_config_sources()
    for needle in (
        "CVAGENT_MODEL",
        "CVAGENT_API_BASE",
        "CVAGENT_TIMEOUT",
        str(config_path()),
        "--model",
        "OPENAI_API_KEY",
        "max_steps",
    ):
        assert needle in text


def _env_value_for(name: str) -> tuple[str, object]:
    """A valid non-default value for field ``name``, as an environment string and parsed."""
    field = Settings.model_fields[name]
    default = field.default
    if isinstance(default, bool):
        return ("false" if default else "true"), (not default)
    if isinstance(default, int):
        return str(default + 1), default + 1
    if isinstance(default, float):
        return str(default + 0.5), default + 0.5
    if "float" in str(field.annotation):
        return "0.5", 0.5
    if name == "api_base":  # validated: a URL
        return "http://env.example:8080/v1", "http://env.example:8080/v1"
    if name == "paper":  # one of a few words
        return "letter", "letter"
    if name == "dates":
        return "inline", "inline"
    return "env-value", "env-value"


@pytest.mark.parametrize("name", list(Settings.model_fields))
def test_every_setting_is_read_from_its_environment_variable(name, monkeypatch):
    raw, expected = _env_value_for(name)
    monkeypatch.setenv(f"CVAGENT_{name.upper()}", raw)
    settings, sources = load_settings_with_sources()
    assert getattr(settings, name) == expected
    assert sources[name] == "env"


def test_env_vars_cover_every_field():
    assert sorted(ENV_VARS.values()) == sorted(Settings.model_fields)
    assert ENV_VARS["CVAGENT_MAX_STEPS"] == "max_steps"


def test_sources_name_flag_env_file_and_default(monkeypatch):
    write_config("timeout: 30\nmax_retries: 2\n")
    monkeypatch.setenv("CVAGENT_MAX_RETRIES", "3")
    settings, sources = load_settings_with_sources(model="from-flag")
    assert settings.max_retries == 3 and settings.timeout == 30 and settings.model == "from-flag"
    assert sources["model"] == "flag"
    assert sources["max_retries"] == "env"
    assert sources["timeout"] == "file"
    assert sources["capability"] == "default"


@pytest.mark.parametrize("raw", ["off", "0", "no", "false"])
def test_transcripts_can_be_switched_off_from_the_environment(raw, monkeypatch):
    monkeypatch.setenv("CVAGENT_TRANSCRIPTS", raw)
    assert load_settings().transcripts is False


def test_bad_bool_in_env_names_the_variable(monkeypatch):
    monkeypatch.setenv("CVAGENT_TRANSCRIPTS", "sometimes")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert info.value.message == (
        "'transcripts' in the environment variable CVAGENT_TRANSCRIPTS must be true or false, "
        "got 'sometimes'"
    )


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("notaurl", "does not start with http:// or https://"),
        ("localhost:11434", "did you mean http://localhost:11434?"),
        ("ftp://host/v1", "does not start with http:// or https://"),
        ("http://", "does not start with"),
        ("http://:8080/v1", "no host name"),
        ("http://host:99999/v1", "port out of range"),
        ("http://host:abc", "not a valid URL"),
        ("http://my host/v1", "a space"),
        ("   ", "empty"),
    ],
)
def test_a_bad_api_base_is_refused_when_given(url, words, monkeypatch):
    """A bad API base is refused when it is given, not at the first message after four
    retries."""
    from cvagent_cli.settings import api_base_problem

    problem = api_base_problem(url)
    assert problem is not None and words in problem
    monkeypatch.setenv("CVAGENT_API_BASE", url)
    if url.strip():  # an empty variable means "not set"
        with pytest.raises(ConfigError, match=r"CVAGENT_API_BASE.*server URL"):
            load_settings()


@pytest.mark.parametrize(
    "url", ["http://localhost:11434", "https://api.example.com/v1", "http://[::1]:8080/v1/"]
)
def test_good_api_bases_pass(url):
    from cvagent_cli.settings import api_base_problem

    assert api_base_problem(url) is None
    assert load_settings(api_base=f" {url} ").api_base == url


def test_every_problem_of_a_config_file_is_reported_at_once():
    """`config edit` names every invalid key at once, not one at a time."""
    path = write_config("modle: x\ntimeout: soon\nmax_steps: 0\nturn_timout: 5\n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = info.value.message
    assert message.startswith("4 problems: ")
    for part in (
        f"unknown setting 'modle' in the config file {path} (did you mean 'model'?)",
        "unknown setting 'turn_timout'",
        f"'timeout' in {path} must be a number, got 'soon'",
        "'max_steps'",
    ):
        assert part in message, message
    assert "known settings: model, api_base" in info.value.hint
