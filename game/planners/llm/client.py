"""Chat completions from any OpenAI-compatible endpoint, with retries and exponential backoff."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from game.inputs import MAX_REPLY_CHARS

from .log import RunLog
from .redact import clean_text, url_secrets

if TYPE_CHECKING:
    import openai

Messages = list[dict[str, str]]
NO_KEY = "none"  # local servers (vLLM, Ollama) take any key


class LLMError(RuntimeError):
    """The endpoint failed for good (after retries, or an error retrying cannot fix)."""


class BadResponse(Exception):
    """An answer that is not a usable chat completion (invalid JSON, no message, ...)."""


class RequestTimeout(Exception):
    """The whole request (connection, headers and body) took longer than the timeout."""


@dataclass(frozen=True)
class RetryPolicy:
    retries: int = 6  # further tries after the first
    backoff_s: float = 1.0  # first delay; doubles each time
    backoff_max_s: float = 60.0

    def delay(self, n: int) -> float:
        return min(self.backoff_max_s, self.backoff_s * 2**n)


@dataclass
class Reply:
    text: str
    tokens_in: int
    tokens_out: int
    latency_s: float
    finish_reason: str | None = None
    model: str | None = None  # the model id the server answered with


@dataclass
class Usage:
    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    latency_s: float = 0.0

    def add(self, reply: Reply) -> None:
        self.calls += 1
        self.tokens_in += reply.tokens_in
        self.tokens_out += reply.tokens_out
        self.latency_s += reply.latency_s


@dataclass
class ChatClient:
    """One model on one endpoint. `complete` logs every request, response and failure."""

    model: str
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float | None = None
    max_tokens: int | None = None
    timeout_s: float = 600.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    log: RunLog = field(default_factory=lambda: RunLog(None))
    _client: Any = field(default=None, repr=False)

    def api(self) -> openai.AsyncOpenAI:
        if self._client is None:
            key = os.environ.get(self.api_key_env)
            if not key:
                if self.base_url is None:
                    raise LLMError(
                        f"no API key: set the environment variable {self.api_key_env} "
                        f"(or name another with --api-key-env)"
                    )
                key = NO_KEY
            self.log.secrets.update([key, *url_secrets(self.base_url)])
            import openai  # a second of imports, paid by the commands that call an endpoint only

            self._client = openai.AsyncOpenAI(
                api_key=key, base_url=self.base_url, timeout=self.timeout_s, max_retries=0
            )
        return self._client

    def request(self, messages: Messages) -> dict[str, Any]:
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    def secrets(self) -> list[str]:
        key = os.environ.get(self.api_key_env)
        return ([key] if key else []) + url_secrets(self.base_url)

    def describe(self, e: BaseException) -> str:
        """What went wrong, with the key, the base URL's credentials and any Authorization value
        blanked out (before the message is cut, so no part of a secret survives the cut)."""
        return describe_error(e, self.timeout_s, self.secrets())

    def clean(self, reply: Reply) -> Reply:
        """The reply with the secrets masked in every text the endpoint controls."""
        secrets = self.secrets()
        reply.text = clean_text(reply.text, secrets)
        if reply.finish_reason is not None:
            reply.finish_reason = clean_text(reply.finish_reason, secrets)[:40]
        if reply.model is not None:
            reply.model = clean_text(reply.model, secrets)
        return reply

    async def _create(self, body: dict[str, Any]) -> Any:
        """One request, bounded as a whole by the timeout (a server trickling bytes is cut off)."""
        try:
            return await asyncio.wait_for(self.api().chat.completions.create(**body), self.timeout_s)
        except TimeoutError:
            raise RequestTimeout() from None
        except (ValueError, TypeError, AttributeError, KeyError) as e:  # a 200 whose body is not JSON
            raise BadResponse(
                f"{type(e).__name__}: {_short(clean_text(str(e), self.secrets()), 120)}"
            ) from None

    async def complete(self, messages: Messages, tag: dict[str, Any] | None = None) -> Reply:
        """One reply; transient failures (429, 5xx, timeouts, dropped connections, answers that
        cannot be read) are retried."""
        import openai

        body = self.request(messages)
        tag = tag or {}
        for n in range(self.retry.retries + 1):
            start = time.monotonic()
            try:
                reply = self.clean(to_reply(await self._create(body), time.monotonic() - start))
            except LLMError:
                raise
            except retryable() as e:
                wait = self.retry.delay(n)
                error = self.describe(e)
                self.log.write({**tag, "event": "retry", "try": n + 1, "error": error, "wait_s": wait})
                if n == self.retry.retries:
                    raise LLMError(f"{error} (gave up after {n + 1} tries)") from None
                await asyncio.sleep(wait)
                continue
            except openai.OpenAIError as e:
                error = self.describe(e)
                self.log.write({**tag, "event": "error", "request": body, "error": error})
                raise LLMError(error) from None
            self.log.write(
                {
                    **tag,
                    "event": "call",
                    "try": n + 1,
                    "request": body,
                    "response": response_record(reply),
                }
            )
            return reply
        raise AssertionError("unreachable")


def retryable() -> tuple[type[BaseException], ...]:
    """The failures worth another try: 429, 5xx, dropped connections, answers not read."""
    import openai

    return (
        openai.RateLimitError,
        openai.InternalServerError,
        openai.APIConnectionError,
        openai.APIResponseValidationError,
        RequestTimeout,
        BadResponse,
    )


def response_record(reply: Reply) -> dict[str, Any]:
    """A reply as the run's log keeps it."""
    return {
        "text": reply.text,
        "finish_reason": reply.finish_reason,
        "model": reply.model,
        "usage": {"prompt_tokens": reply.tokens_in, "completion_tokens": reply.tokens_out},
        "latency_s": round(reply.latency_s, 3),
    }


def describe_error(e: BaseException, timeout_s: float | None = None, secrets: list[str] | None = None) -> str:
    """One line for a failed request; every text from the endpoint is masked, then cut."""

    import openai

    def short(text: str, n: int = 300) -> str:
        text = clean_text(text, secrets or [])
        return text if len(text) <= n else text[:n] + "..."

    if isinstance(e, (openai.APITimeoutError, RequestTimeout)):
        limit = f" ({timeout_s:g} s)" if timeout_s else ""
        return f"the request timed out (took longer than the timeout{limit})"
    if isinstance(e, BadResponse):
        return f"the endpoint's answer cannot be used ({short(str(e))})"
    if isinstance(e, openai.APIConnectionError):
        return f"connection failed ({short(str(e.__cause__ or e))})"
    if isinstance(e, openai.APIStatusError):
        return f"HTTP {e.status_code}: {short(e.message)}"
    return f"{type(e).__name__}: {short(str(e))}"


def _short(text: str, n: int = 300) -> str:
    return text if len(text) <= n else text[:n] + "..."


def to_reply(response: Any, latency: float) -> Reply:
    """The reply text and usage of a chat completion; BadResponse when it has neither form nor
    text (a body that is not JSON, no choices, a message of null)."""
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise BadResponse("no choices in the answer" if choices is not None else "not a chat completion")
    choice = choices[0]
    message = getattr(choice, "message", None)
    content = getattr(message, "content", None) if message is not None else None
    if message is None or not isinstance(content, (str, type(None))):
        raise BadResponse("the answer has no message")
    usage = getattr(response, "usage", None)
    finish = getattr(choice, "finish_reason", None)
    model = getattr(response, "model", None)
    return Reply(
        text=well_formed((content or "")[:MAX_REPLY_CHARS]),
        tokens_in=_count(getattr(usage, "prompt_tokens", 0)),
        tokens_out=_count(getattr(usage, "completion_tokens", 0)),
        latency_s=latency,
        finish_reason=finish[:40] if isinstance(finish, str) else None,
        model=model[:200] if isinstance(model, str) else None,
    )


def well_formed(text: str) -> str:
    """The text with lone surrogates (JSON lets an endpoint send them) as U+FFFD: it can then be
    logged, recorded and sent back in the next request like any reply."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def _count(v: Any) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 10**12 else 0
