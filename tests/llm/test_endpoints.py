"""/model NAME: which endpoint the new model talks to (cvagent_cli/llm/endpoints.py)."""

from __future__ import annotations

import pytest

from cvagent_cli.llm.endpoints import choose_endpoint, describe_default, provider_of

LOCAL = "http://127.0.0.1:8080/v1"
PROXY = "https://llm-proxy.example.internal/v1"
PROVIDERS = {"openai", "deepseek", "anthropic", "ollama_chat", "groq"}


def choose(new, current=("openai/llama", LOCAL), configured=("openai/llama", LOCAL), **kw):
    kw.setdefault("providers", PROVIDERS)
    kw.setdefault("environ", {})
    return choose_endpoint(
        new,
        current_model=current[0],
        current_base=current[1],
        configured_model=configured[0],
        configured_base=configured[1],
        **kw,
    )


@pytest.mark.parametrize(
    ("model", "base", "providers", "expected"),
    [
        ("deepseek/deepseek-chat", None, PROVIDERS, "deepseek"),
        ("llama3.1:8b", LOCAL, PROVIDERS, "openai"),  # bare + api_base: compatible server
        ("llama3.1:8b", None, PROVIDERS, None),  # bare, no base: litellm decides
        ("meta-llama/Llama-3.1-8B", LOCAL, PROVIDERS, "openai"),  # not a provider prefix
        ("meta-llama/Llama-3.1-8B", LOCAL, None, "meta-llama"),  # litellm not loaded yet
        (None, LOCAL, PROVIDERS, None),
    ],
)
def test_provider_of(model, base, providers, expected):
    assert provider_of(model, base, providers) == expected


def test_local_server_to_a_hosted_provider_resets_the_base_and_says_where():
    choice = choose("deepseek/deepseek-chat")
    assert choice.api_base is None
    assert choice.where == (
        f"https://api.deepseek.com/beta (deepseek's default), no longer {LOCAL}"
    )


def test_the_providers_own_base_variable_is_named():
    choice = choose("deepseek/deepseek-chat", environ={"DEEPSEEK_API_BASE": PROXY})
    assert choice.api_base is None  # litellm reads the variable itself
    assert choice.where.startswith(f"{PROXY} (from DEEPSEEK_API_BASE)")
    openai = choose(
        "openai/gpt-4o-mini",
        current=("deepseek/deepseek-chat", None),
        configured=(None, None),
        environ={"OPENAI_BASE_URL": PROXY},
    )
    assert openai.where == f"{PROXY} (from OPENAI_BASE_URL)"


def test_provider_without_a_known_default_is_named_not_guessed():
    assert choose("groq/llama-3.3-70b", environ={}).where.startswith("https://api.groq.com")
    assert describe_default("cohere_chat", {}) == "cohere_chat's default endpoint"
    assert describe_default(None, {}) == "the provider's default endpoint"


def test_same_provider_keeps_the_current_server():
    choice = choose("openai/qwen2.5-7b")
    assert (choice.api_base, choice.where) == (LOCAL, f"{LOCAL} (kept: same provider)")


@pytest.mark.parametrize("name", ["qwen2.5:7b", "meta-llama/Llama-3.1-8B"])
def test_a_bare_name_or_unknown_prefix_is_a_model_on_the_same_server(name):
    choice = choose(name)
    assert (choice.api_base, choice.where) == (LOCAL, f"{LOCAL} (the same server as before)")


def test_back_to_the_configured_provider_gets_the_configured_base_again():
    # started on deepseek through a proxy, moved to a local server, then back to deepseek
    choice = choose(
        "deepseek/deepseek-reasoner",
        current=("openai/llama", LOCAL),
        configured=("deepseek/deepseek-chat", PROXY),
    )
    assert choice.api_base == PROXY
    assert choice.where == f"{PROXY} (the configured api_base), no longer {LOCAL}"
    # and a bare name after a hosted detour goes back to the configured server
    bare = choose("llama3.1", current=("deepseek/deepseek-chat", None))
    assert (bare.api_base, bare.where) == (LOCAL, f"{LOCAL} (the configured api_base)")


def test_a_configured_base_of_another_provider_is_not_borrowed():
    choice = choose(
        "anthropic/claude-3-5-haiku-latest",
        current=("deepseek/deepseek-chat", None),
        configured=("openai/llama", LOCAL),
    )
    assert choice.api_base is None
    assert choice.where == "https://api.anthropic.com (anthropic's default)"


def test_an_explicit_base_wins_and_default_means_the_providers_own():
    choice = choose("deepseek/deepseek-chat", explicit_base=PROXY)
    assert (choice.api_base, choice.where) == (PROXY, PROXY)
    own = choose("openai/gpt-4o-mini", explicit_base="default")
    assert own.api_base is None
    assert own.where == "https://api.openai.com/v1 (openai's default)"


def test_hosted_to_hosted_without_any_base():
    choice = choose(
        "anthropic/claude-3-5-haiku-latest",
        current=("deepseek/deepseek-chat", None),
        configured=("deepseek/deepseek-chat", None),
    )
    assert choice.api_base is None and "no longer" not in choice.where


def test_the_runner_asks_litellm_for_providers_only_for_prefixed_names():
    from cvagent_cli.cli.chat_runner import known_providers

    assert known_providers("qwen2.5:7b") is None
    providers = known_providers("meta-llama/Llama-3.1-8B")
    assert providers is not None
    assert {"openai", "deepseek", "ollama_chat"} <= providers and "meta-llama" not in providers
