"""The two rule sets. `documented` differs from `paracook` in exactly four switches."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RuleSet:
    name: str
    cooking_pauses_off_stove: bool  # else time off the stove still counts
    reset_emptied_cookware: bool  # else emptied cookware keeps its counters
    exclusive_sinks: bool  # chopping boards are always exclusive
    oct_is_last_serve: bool  # else OCT is the time of the last event processed


RULESETS = {
    "paracook": RuleSet("paracook", False, False, False, False),
    "documented": RuleSet("documented", True, True, True, True),
}


def get_rules(rules: str | RuleSet) -> RuleSet:
    if isinstance(rules, RuleSet):
        return rules
    try:
        return RULESETS[rules]
    except KeyError:
        raise ValueError(f"unknown rule set {rules!r} (choose {' or '.join(RULESETS)})") from None
