"""Chat completions from any OpenAI-compatible endpoint, with retries and exponential backoff."""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from typing import Any

import openai

from .log import RunLog

Messages = list[dict[str, str]]
NO_KEY = "none"  # local servers (vLLM, Ollama) take any key


class LLMError(RuntimeError):
    """The endpoint failed for good (after retries, or an error retrying cannot fix)."""


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

    async def complete(self, messages: Messages, tag: dict[str, Any] | None = None) -> Reply:
        """One reply; transient failures (429, 5xx, timeouts, dropped connections) are retried."""
        body = self.request(messages)
        tag = tag or {}
        for n in range(self.retry.retries + 1):
            start = time.monotonic()
            try:
                response = await self.api().chat.completions.create(**body)
            except RETRYABLE as e:
                wait = self.retry.delay(n)
                self.log.write(
                    {**tag, "event": "retry", "try": n + 1, "error": describe_error(e), "wait_s": wait}
                )
                if n == self.retry.retries:
                    raise LLMError(f"{describe_error(e)} (gave up after {n + 1} tries)") from None
                await asyncio.sleep(wait)
                continue
            except openai.OpenAIError as e:
                self.log.write({**tag, "event": "error", "request": body, "error": describe_error(e)})
                raise LLMError(describe_error(e)) from None
            reply = to_reply(response, time.monotonic() - start)
            self.log.write(
                {
                    **tag,
                    "event": "call",
                    "try": n + 1,
                    "request": body,
                    "response": {
                        "text": reply.text,
                        "finish_reason": reply.finish_reason,
                        "usage": {"prompt_tokens": reply.tokens_in, "completion_tokens": reply.tokens_out},
                        "latency_s": round(reply.latency_s, 3),
                    },
                }
            )
            return reply
        raise AssertionError("unreachable")


RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APIConnectionError)


def describe_error(e: BaseException) -> str:
    if isinstance(e, openai.APITimeoutError):
        return "the request timed out"
    if isinstance(e, openai.APIConnectionError):
        return f"connection failed ({e.__cause__ or e})"
    if isinstance(e, openai.APIStatusError):
        return f"HTTP {e.status_code}: {_short(e.message)}"
    return f"{type(e).__name__}: {_short(str(e))}"


def _short(text: str, n: int = 300) -> str:
    return text if len(text) <= n else text[:n] + "..."


def to_reply(response: Any, latency: float) -> Reply:
    if not getattr(response, "choices", None):
        raise LLMError("the endpoint answered without any choices")
    choice = response.choices[0]
    usage = getattr(response, "usage", None)
    return Reply(
        text=choice.message.content or "",
        tokens_in=int(getattr(usage, "prompt_tokens", 0) or 0),
        tokens_out=int(getattr(usage, "completion_tokens", 0) or 0),
        latency_s=latency,
        finish_reason=choice.finish_reason,
    )
