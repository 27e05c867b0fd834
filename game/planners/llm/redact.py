"""Keeping the API key out of everything written or shown: logs, errors, the terminal."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import parse_qsl, urlsplit, urlunsplit

MASK = "[redacted]"
MIN_SECRET = 6  # shorter "keys" (none, EMPTY) are placeholders, not secrets
# an Authorization header or field, as text, JSON or Python repr, and any bearer token
_AUTH = re.compile(r"""(?i)(authorization['"]?\s*[:=]\s*['"]?)([^'"\r\n,}]*)""")
_BEARER = re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=:-]+")


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """`text` with every secret, Authorization value and bearer token replaced by [redacted]."""
    for secret in secrets:
        if secret and len(secret) >= MIN_SECRET:
            text = text.replace(secret, MASK)
    text = _AUTH.sub(lambda m: m.group(1) + MASK, text)
    return _BEARER.sub(lambda m: f"{m.group(1)} {MASK}", text)


_SECRET_PARAM = re.compile(r"(?i)(key|token|secret|password|auth|sig)")


def url_secrets(url: str | None) -> list[str]:
    """The credentials a base URL carries: the user and password before the host, and the values
    of query parameters named like a key or token."""
    if not url:
        return []
    parts = urlsplit(url)
    found = [s for s in (parts.username, parts.password) if s]
    found += [v for k, v in parse_qsl(parts.query) if v and _SECRET_PARAM.search(k)]
    return found


def mask_url(url: str | None) -> str | None:
    """The base URL as it may be stored or shown: credentials replaced by [redacted]."""
    if not url:
        return url
    parts = urlsplit(url)
    netloc = parts.netloc
    if "@" in netloc:
        netloc = MASK + "@" + netloc.rsplit("@", 1)[1]
    query = "&".join(
        f"{k}={MASK if v and _SECRET_PARAM.search(k) else v}"
        for k, v in parse_qsl(parts.query, keep_blank_values=True)
    )
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str, secrets: Iterable[str] = ()) -> str:
    """Text an endpoint sent, made safe to keep: secrets masked (before anything is cut) and lone
    surrogates (which cannot be written as UTF-8) replaced by U+FFFD."""
    return _SURROGATE.sub("\ufffd", redact(text, secrets))
