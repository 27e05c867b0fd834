"""The deterministic kitchen engine: pure Python, no Pygame, no files, no network."""

from .errors import ERROR_KINDS, ErrorDetail
from .level import (
    AgentStart,
    Level,
    Recipe,
    RecipeIngredient,
    Station,
    level_from_map,
    station_kind,
)
from .limits import MAX_ACTIONS_PER_AGENT, MAX_TIME, MAX_WAIT
from .plan import (
    ACTION_NAMES,
    UNREADABLE,
    Action,
    Plan,
    PlanError,
    parse_plan,
    plan_to_dict,
    unreadable_actions,
    unwrap_plan,
)
from .result import REFERENCE_FIELDS, Result
from .rules import RULESETS, RuleSet, get_rules
from .runner import simulate
from .timeline import ActionSpan, Timeline

__all__ = [
    "ACTION_NAMES",
    "ERROR_KINDS",
    "MAX_ACTIONS_PER_AGENT",
    "MAX_TIME",
    "MAX_WAIT",
    "REFERENCE_FIELDS",
    "RULESETS",
    "Action",
    "ActionSpan",
    "AgentStart",
    "ErrorDetail",
    "Level",
    "Plan",
    "PlanError",
    "Recipe",
    "RecipeIngredient",
    "Result",
    "RuleSet",
    "Station",
    "Timeline",
    "UNREADABLE",
    "get_rules",
    "level_from_map",
    "parse_plan",
    "plan_to_dict",
    "simulate",
    "station_kind",
    "unreadable_actions",
    "unwrap_plan",
]
