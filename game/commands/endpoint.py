"""Options shared by the commands that talk to an OpenAI-compatible endpoint (not a command)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from .ranges import number, seconds, whole

if TYPE_CHECKING:  # the client pulls in openai: imported when a command runs, not for --help
    from game.planners.llm.client import ChatClient


def add_endpoint_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--base-url", help="endpoint, e.g. http://localhost:8000/v1 (default: OpenAI)")
    p.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY)",
    )
    p.add_argument(
        "--concurrency", type=whole(1, 1024), default=4, metavar="N", help="requests at once (default 4)"
    )
    p.add_argument(
        "--attempts", type=whole(1, 100), default=3, help="tries per task, with error feedback (default 3)"
    )
    p.add_argument(
        "--temperature", type=number(0, 2), help="sampling temperature, 0 to 2 (default: the endpoint's)"
    )
    p.add_argument("--max-tokens", type=whole(1, 10_000_000), help="cap on each reply's length")
    p.add_argument("--timeout", type=seconds(), default=600.0, metavar="S", help="per request (default 600)")
    p.add_argument("--retries", type=whole(0, 100), default=6, help="retries on 429/5xx/timeouts (default 6)")
    p.add_argument(
        "--backoff",
        type=number(0, 3600),
        default=1.0,
        metavar="S",
        help="first retry delay, doubled each time (default 1)",
    )


def missing_key(args: argparse.Namespace, prog: str) -> str | None:
    """The message to print when no key is set and no local endpoint is named."""
    if args.base_url or os.environ.get(args.api_key_env):
        return None
    return (
        f"{prog}: no API key: set the environment variable {args.api_key_env} (or name another "
        f"with --api-key-env), or give --base-url for a local server"
    )


def make_client(args: argparse.Namespace, log_path: Path) -> ChatClient:
    from game.planners.llm.client import ChatClient, RetryPolicy
    from game.planners.llm.log import RunLog

    """The chat client the endpoint options describe, logging to `log_path`."""
    return ChatClient(
        args.model,
        args.base_url,
        args.api_key_env,
        args.temperature,
        args.max_tokens,
        args.timeout,
        RetryPolicy(args.retries, args.backoff),
        RunLog(log_path),
    )
