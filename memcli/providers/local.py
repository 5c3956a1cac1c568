"""Local OpenAI-compatible servers: which one answers, and which model it has.

Ollama, LM Studio, llama.cpp's ``llama-server`` and vLLM all list their models at
``GET /v1/models`` (``{"data": [{"id": …}, …]}``) and answer ``/v1/chat/completions``; they
are found at their usual addresses, tried in this order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from memcli.errors import ProviderError

if TYPE_CHECKING:
    import httpx

LOCAL_SERVERS: tuple[tuple[str, str], ...] = (
    ("Ollama", "http://127.0.0.1:11434/v1"),
    ("LM Studio", "http://127.0.0.1:1234/v1"),
    ("llama.cpp", "http://127.0.0.1:8080/v1"),
    ("vLLM", "http://127.0.0.1:8000/v1"),
)
# A server on this machine answers its model list in milliseconds; one that takes longer is
# not the one to extract with on every turn.
PROBE_SECONDS = 0.5


def models(base_url: str, timeout: float,
           transport: httpx.BaseTransport | None = None) -> list[str]:
    """The model ids BASE_URL lists; a ProviderError when it does not answer with a list."""
    import httpx

    url = base_url.strip().rstrip("/") + "/models"
    try:
        with httpx.Client(timeout=timeout, transport=transport, follow_redirects=False) as client:
            response = client.get(url)
    except httpx.HTTPError as exc:
        raise ProviderError(f"cannot list the models of {base_url} ({type(exc).__name__}); "
                            "is the server running? check --base-url") from None
    data: Any = None
    if response.status_code == 200:
        try:
            data = response.json()
        except ValueError:
            data = None
    listed = data.get("data") if isinstance(data, dict) else None
    if not isinstance(listed, list):
        raise ProviderError(f"{url} answered HTTP {response.status_code} without a model "
                            "list; check --base-url (it ends with /v1)")
    return [m["id"] for m in listed if isinstance(m, dict) and isinstance(m.get("id"), str)]


def first_model(base_url: str, timeout: float,
                transport: httpx.BaseTransport | None = None) -> str:
    """The model to use when none was set: the first the server lists."""
    found = models(base_url, timeout, transport)
    if not found:
        raise ProviderError(f"{base_url} has no model; pull one (`ollama pull qwen2.5:3b`) or "
                            "load one, or pass --model")
    return found[0]


def answering_server(candidates: tuple[tuple[str, str], ...] = LOCAL_SERVERS,
                     timeout: float = PROBE_SECONDS) -> tuple[str, str] | None:
    """The first of CANDIDATES (name, base URL) that lists at least one model."""
    for name, url in candidates:
        try:
            if models(url, timeout):
                return name, url
        except ProviderError:
            continue
    return None
