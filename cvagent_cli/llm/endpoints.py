"""Which endpoint a model talks to after ``/model NAME``, and one line that says so.

``--api-base`` points cvagent at one server (a local llama.cpp, vLLM, Ollama, a proxy).
Switching to a model of another provider must not silently keep sending to that server:
``/model deepseek/deepseek-chat`` after ``--model openai/llama --api-base
http://127.0.0.1:8080/v1`` goes to DeepSeek, and the REPL says so.  The rules
(:func:`choose_endpoint`):

1. ``/model NAME --api-base URL`` uses URL; ``--api-base default`` uses the provider's
   own endpoint.
2. A bare name (``qwen2.5:7b``) or a prefix litellm does not know (``meta-llama/...``)
   is a model on the same OpenAI-compatible server: the current base is kept.
3. The same provider as now keeps the current base (``openai/llama`` to ``openai/qwen``
   on the same local server).
4. Another provider gets the configured base (flag, ``CVAGENT_API_BASE`` or
   config.yaml) when that base belongs to it (the configured model has that provider),
   otherwise no base: litellm then uses ``<PROVIDER>_API_BASE`` from the environment or
   the provider's default, and the line names which.

Pure functions: no litellm import here (the caller passes litellm's provider list when
it is loaded).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

#: what ``/model NAME --api-base default`` means: the provider's own endpoint
DEFAULT_KEYWORD = "default"

#: documented default endpoints litellm uses when no api_base is given (for the message
#: only; litellm decides the real URL).  Providers missing here are named, not guessed.
PROVIDER_DEFAULT_BASES: dict[str, str] = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
    "deepseek": "https://api.deepseek.com/beta",
    "gemini": "https://generativelanguage.googleapis.com",
    "mistral": "https://api.mistral.ai/v1",
    "groq": "https://api.groq.com/openai/v1",
    "openrouter": "https://openrouter.ai/api/v1",
    "xai": "https://api.x.ai/v1",
    "ollama": "http://localhost:11434",
    "ollama_chat": "http://localhost:11434",
}

#: environment variables litellm reads for a provider's base URL, first match wins
PROVIDER_BASE_VARS: dict[str, tuple[str, ...]] = {
    "openai": ("OPENAI_BASE_URL", "OPENAI_API_BASE"),
    "anthropic": ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_BASE"),
    "ollama_chat": ("OLLAMA_API_BASE",),
}


@dataclass(frozen=True)
class EndpointChoice:
    """``api_base`` for the new client (None: the provider's own), and the message."""

    api_base: str | None
    where: str


def provider_of(
    model: str | None, api_base: str | None, providers: Collection[str] | None = None
) -> str | None:
    """The provider a model name goes to, as the gateway resolves it.

    With an api_base, a bare name or an unknown prefix is an OpenAI-compatible server
    (``openai``).  Without one, a bare name is left to litellm (None: not known here).
    ``providers`` is litellm's provider list, or None when litellm is not loaded (then
    every prefix counts as a provider).
    """
    if not model:
        return None
    prefix = model.split("/", 1)[0] if "/" in model else None
    if prefix is not None and (providers is None or prefix in providers):
        return prefix
    return "openai" if api_base else prefix


def _env_base(provider: str | None, environ: Mapping[str, str]) -> tuple[str, str] | None:
    if not provider:
        return None
    names = PROVIDER_BASE_VARS.get(provider, (f"{provider.upper()}_API_BASE",))
    for name in names:
        value = environ.get(name, "").strip()
        if value:
            return name, value
    return None


def describe_default(provider: str | None, environ: Mapping[str, str]) -> str:
    """Where litellm sends a request for ``provider`` when no api_base is given."""
    if provider is None:
        return "the provider's default endpoint"
    found = _env_base(provider, environ)
    if found is not None:
        return f"{found[1]} (from {found[0]})"
    url = PROVIDER_DEFAULT_BASES.get(provider)
    if url is not None:
        return f"{url} ({provider}'s default)"
    return f"{provider}'s default endpoint"


def choose_endpoint(
    new_model: str,
    *,
    current_model: str | None,
    current_base: str | None,
    configured_model: str | None = None,
    configured_base: str | None = None,
    explicit_base: str | None = None,
    providers: Collection[str] | None = None,
    environ: Mapping[str, str] | None = None,
) -> EndpointChoice:
    """The endpoint for ``new_model`` (see the module docstring for the rules)."""
    env: Mapping[str, str] = environ if environ is not None else {}
    new_provider = provider_of(new_model, None, providers)
    if explicit_base is not None:
        if explicit_base.strip().lower() == DEFAULT_KEYWORD:
            return EndpointChoice(None, describe_default(new_provider, env))
        return EndpointChoice(explicit_base, explicit_base)

    prefix = new_model.split("/", 1)[0] if "/" in new_model else None
    same_server = prefix is None or (providers is not None and prefix not in providers)
    if same_server and current_base:
        return EndpointChoice(current_base, f"{current_base} (the same server as before)")
    if same_server and configured_base:
        return EndpointChoice(configured_base, f"{configured_base} (the configured api_base)")

    if current_base and new_provider == provider_of(current_model, current_base, providers):
        return EndpointChoice(current_base, f"{current_base} (kept: same provider)")
    if (
        configured_base
        and configured_model
        and new_provider == provider_of(configured_model, configured_base, providers)
    ):
        where = f"{configured_base} (the configured api_base)"
    else:
        configured_base = None
        where = describe_default(new_provider, env)
    if current_base and current_base != configured_base:
        where += f", no longer {current_base}"
    return EndpointChoice(configured_base, where)
