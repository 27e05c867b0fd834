"""Keeping the API key out of everything written or shown: logs, errors, the terminal."""

from __future__ import annotations

import re
from collections.abc import Iterable

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
