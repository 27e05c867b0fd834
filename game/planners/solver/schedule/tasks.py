"""The work of a level as tasks (one agent each, empty-handed at both ends) and the genome that
says in which order, by whom and how they are done."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import KitchenModel, Need

PREP, WASH, ASSEMBLE, RELAY = "prep", "wash", "assemble", "relay"
MOVE, BRING = "move", "bring"  # tasks of hand-over levels: move a plate, bring a pan to it
DELIVER, STAGE = "deliver", "stage"  # a raw or chopped ingredient: onto the parked plate, or left out
PARK, HOLD = "park", "hold"  # a washed plate: put on a table, or kept in hand to assemble the dish
DIRECT = "direct"  # a cooked ingredient: the one who fetches it puts it in the pot or pan
# ... or RELAY: it is left on a table and another agent (a RELAY task) takes it to the stove
STAY = "stay"  # a plate is assembled where it is, or MOVE: first carried to another table
SCOOP = "scoop"  # cooked food is scooped by the plate's carrier, or BRING: its pan is brought
SERVE = "serve"  # the dish's assembler carries it to the window, or PASS: it hands the plate over a
PASS = "pass"  # table to another agent who serves it, when that serves it sooner (teams only)
CARRY = "carry"  # chopped food for a pan is carried to the pan on its stove, or FILL: another agent
FILL = "fill"  # brings the empty pan to the board, fills it there and takes it back (teams only);
# for a pot, FILL: the fetcher takes the empty pot to the dispenser first (any number of agents)
SELF = "self"  # an ingredient to chop (for a pan too) is chopped by the one who fetches it, or
HAND = "hand"  # HAND: put on a table raw, for another agent to chop (and cook) (teams only)


@dataclass(frozen=True)
class Task:
    id: int
    kind: str  # prep | relay | move | bring | wash | assemble
    dish: int
    need: Need | None = None


@dataclass
class Genome:
    """One candidate plan: task priorities, ingredient and plate methods, agent choices."""

    keys: list[float]  # per task: lower is scheduled first (when its predecessors are done)
    method: dict[int, str]  # need id -> deliver | stage (raw, chopped), direct | relay (cooked);
    #                         wash_key(dish) -> park | hold (washed plates)
    #                         move_key(dish) -> stay | move, bring_key(dish) -> scoop | bring
    #                         serve_key(dish) -> serve | pass, fill_key(need id) -> carry | fill
    #                         hand_key(need id) -> self | hand
    agent: list[int | None]  # per task: a fixed agent, or None for the earliest finisher
    plates: list[int]  # initial plate index for each of the first dishes
    # cookware is chosen by when its food can reach a window (True) or when it is ready (False)
    to_window: bool = True

    def copy(self) -> Genome:
        return Genome(list(self.keys), dict(self.method), list(self.agent), list(self.plates), self.to_window)

    def signature(self) -> tuple:
        order = tuple(sorted(range(len(self.keys)), key=self.keys.__getitem__))
        methods = tuple(sorted(self.method.items()))
        return (order, methods, tuple(self.agent), tuple(self.plates), self.to_window)


def build_tasks(model: KitchenModel) -> list[Task]:
    tasks: list[Task] = []
    plates = len(model.plates)
    for dish in range(model.dishes):
        if model.flexible:
            tasks.append(Task(len(tasks), MOVE, dish))
        for need in model.dish_needs[dish]:
            tasks.append(Task(len(tasks), PREP, dish, need))
            if model.flexible and need.kind in ("pan", "pot"):
                tasks.append(Task(len(tasks), RELAY, dish, need))
        if dish >= plates:
            tasks.append(Task(len(tasks), WASH, dish))
        if model.flexible:
            tasks.append(Task(len(tasks), BRING, dish))
        tasks.append(Task(len(tasks), ASSEMBLE, dish))  # last: the decoder relies on it
    return tasks


def wash_key(dish: int) -> int:
    return -1 - dish


def move_key(dish: int) -> int:
    return -1000 - dish


def bring_key(dish: int) -> int:
    return -2000 - dish


def serve_key(dish: int) -> int:
    return -3000 - dish


def fill_key(need_id: int) -> int:
    return -4000 - need_id


def hand_key(need_id: int) -> int:
    return -5000 - need_id
