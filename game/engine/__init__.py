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
from .plan import ACTION_NAMES, Action, Plan, PlanError, parse_plan, plan_to_dict, unwrap_plan
from .result import REFERENCE_FIELDS, Result
from .rules import RULESETS, RuleSet, get_rules
from .simulator import simulate
from .timeline import ActionSpan, Timeline

__all__ = [
    "ACTION_NAMES",
    "ERROR_KINDS",
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
    "get_rules",
    "level_from_map",
    "parse_plan",
    "plan_to_dict",
    "simulate",
    "station_kind",
    "unwrap_plan",
]
