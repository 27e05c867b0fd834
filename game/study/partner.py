"""A study's partner condition: who plans beside the person (the built-in planner, or an LLM
through an endpoint, model and method) and which agents are the person's.

In a protocol:

    partner: planner                          # the built-in planner
    partner: http://localhost:8000/v1/llama3/io   # <endpoint>/<model>/<method> (openai: OpenAI's)
    partner: {endpoint: http://host/v1, model: org/model-7b, method: cot, api_key_env: MY_KEY}
    person_agents: [agent1]                   # default [agent1] when a partner is set

A key is never written in a protocol: the endpoint's key is read from the environment variable
`api_key_env` names (default OPENAI_API_KEY; a local endpoint needs none)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any
from urllib.parse import urlsplit

from game.inputs import short_repr
from game.planners.llm import METHODS

KINDS = ("planner", "llm")
DEFAULT_PERSON = ("agent1",)
OPENAI = ("openai", "default")  # the endpoint's name in the short form for OpenAI's own
MAX_NAME_CHARS = 64  # an agent's name (as levels allow)
MAX_TEXT_CHARS = 300  # an endpoint URL, a model's name, an environment variable's name
PARTNER_FORMS = (
    "planner, <endpoint>/<model>/<method> (e.g. http://localhost:8000/v1/llama3/io), or a mapping "
    "{endpoint, model, method, api_key_env}"
)


class PartnerSpecError(ValueError):
    """A partner field that cannot be used; the message names the field (the caller adds where)."""


@dataclass(frozen=True)
class Partner:
    kind: str  # planner | llm
    endpoint: str | None = None  # llm: the base URL (None: OpenAI's)
    model: str | None = None  # llm
    method: str | None = None  # llm: io | cot | plag | msreact
    person_agents: tuple[str, ...] = DEFAULT_PERSON
    api_key_env: str = "OPENAI_API_KEY"  # llm: where the key is (never the key itself)

    @property
    def label(self) -> str:
        """`planner` or `llm <model> <method>`: how reports name the condition's partner."""
        return "planner" if self.kind == "planner" else f"llm {self.model} {self.method}"

    @property
    def condition(self) -> str:
        """The study condition's name, as exports record it and reports compare by: `partner
        planner (person: agent1)`. Two partners, or other agents for the person, are two
        conditions."""
        return f"partner {self.label} (person: {', '.join(self.person_agents)})"

    def llm_settings(self) -> dict[str, Any]:
        """The settings `game.planners.llm.partner.plan_around` takes."""
        return {
            "model": self.model,
            "endpoint": self.endpoint,
            "method": self.method,
            "api_key_env": self.api_key_env,
        }

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["person_agents"] = list(self.person_agents)
        return d

    @classmethod
    def from_dict(cls, data: Any) -> Partner:
        """A session file's partner, checked as strictly as a protocol's (PartnerSpecError)."""
        if not isinstance(data, dict):
            raise PartnerSpecError(f"field 'partner' must be a mapping or null, not {short_repr(data)}")
        unknown = sorted(str(k) for k in data if k not in cls.__dataclass_fields__)
        if unknown:
            raise PartnerSpecError(f"field 'partner': unknown field(s) {', '.join(unknown)}")
        kind = data.get("kind")
        if kind == "planner":
            partner = cls("planner")
        elif kind == "llm":
            partner = _llm(data)
        else:
            raise PartnerSpecError(
                f"field 'partner.kind' must be one of {', '.join(KINDS)}, not {short_repr(kind)}"
            )
        return cls(**{**asdict(partner), "person_agents": person_agents(data.get("person_agents"))})


SOLO = "solo"  # the condition without a partner: the person plans every agent


def condition_of(partner: dict[str, Any] | None) -> str:
    """A session's condition from its (checked) partner field."""
    return SOLO if partner is None else Partner.from_dict(partner).condition


def _text(value: Any, field: str, required: bool = True) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_TEXT_CHARS:
        raise PartnerSpecError(f"field {field!r} must be a text of 1 to {MAX_TEXT_CHARS} characters")
    if not value.isprintable():
        raise PartnerSpecError(f"field {field!r} holds a control character")
    return value.strip()


def endpoint_of(value: Any, field: str = "partner.endpoint") -> str | None:
    """An http(s) URL without credentials, or None for OpenAI's own."""
    text = _text(value, field, required=False)
    if text is None or text.lower() in OPENAI:
        return None
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        raise PartnerSpecError(f"field {field!r}: {short_repr(text)} is not a URL") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise PartnerSpecError(f"field {field!r}: {short_repr(text)} is not an http(s) URL")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise PartnerSpecError(
            f"field {field!r}: the URL holds credentials or a query; a protocol names no secret "
            "(put the key in an environment variable and name it with api_key_env)"
        )
    return text.rstrip("/")


def key_env_of(value: Any, field: str = "partner.api_key_env") -> str:
    """The name of the environment variable that holds the API key (never the key itself)."""
    env = _text(value, field)
    assert env is not None
    if not env.replace("_", "").isascii() or not env.replace("_", "").isalnum() or env[0].isdigit():
        raise PartnerSpecError(f"field {field!r} must name an environment variable (letters, digits, _)")
    return env


def _llm(data: dict[str, Any]) -> Partner:
    method = data.get("method", "io")
    if method not in METHODS:
        raise PartnerSpecError(
            f"field 'partner.method' must be one of {', '.join(METHODS)}, not {short_repr(method)}"
        )
    env = key_env_of(data.get("api_key_env", "OPENAI_API_KEY"))
    return Partner(
        "llm",
        endpoint_of(data.get("endpoint")),
        _text(data.get("model"), "partner.model"),
        method,
        api_key_env=env,
    )


def partner_of(value: Any) -> Partner:
    """A protocol's `partner:` value (without person_agents)."""
    if isinstance(value, str):
        text = value.strip()
        if text == "planner":
            return Partner("planner")
        parts = text.rsplit("/", 2)
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise PartnerSpecError(f"field 'partner' must be {PARTNER_FORMS}; not {short_repr(value)}")
        endpoint, model, method = parts
        return _llm({"endpoint": endpoint, "model": model, "method": method})
    if isinstance(value, dict):
        unknown = sorted(
            str(k) for k in value if k not in ("kind", "endpoint", "model", "method", "api_key_env")
        )
        if unknown:
            raise PartnerSpecError(f"field 'partner': unknown field(s) {', '.join(unknown)}")
        if value.get("kind", "llm") == "planner":
            return Partner("planner")
        if value.get("kind", "llm") != "llm":
            raise PartnerSpecError(f"field 'partner.kind' must be one of {', '.join(KINDS)}")
        return _llm(value)
    raise PartnerSpecError(f"field 'partner' must be {PARTNER_FORMS}; not {short_repr(value)}")


def person_agents(value: Any) -> tuple[str, ...]:
    """The person's agents: a non-empty list of distinct agent names."""
    if value is None:
        return DEFAULT_PERSON
    if isinstance(value, str):
        value = [value]
    ok = isinstance(value, list) and value and len(value) <= 64
    if not ok or not all(
        isinstance(a, str) and 0 < len(a) <= MAX_NAME_CHARS and a.isprintable() for a in value
    ):
        raise PartnerSpecError(
            f"field 'person_agents' must be a list of agent names, not {short_repr(value)}"
        )
    if len(set(value)) != len(value):
        raise PartnerSpecError("field 'person_agents' names an agent twice")
    return tuple(value)


def agents_problem(
    partner: Partner, level_name: str, agents: Sequence[str], measured: bool = True
) -> str | None:
    """Why a level cannot be planned in this condition: a person's agent it lacks, or (a
    measured level) no agent left for the partner; None when it can. A warm-up may be the
    person's alone."""
    missing = [a for a in partner.person_agents if a not in agents]
    if missing:
        return f"level {level_name} has no agent {', '.join(missing)} (its agents: {', '.join(agents)})"
    if measured and all(a in partner.person_agents for a in agents):
        return f"level {level_name}: every agent is the person's, none is left for the partner"
    return None
