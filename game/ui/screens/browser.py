"""The level browser: tutorials first, then the benchmark suite grouped by difficulty, category,
agents and orders, each level with the player's best recorded time. Click a level to plan it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pygame

from game.levels import LevelError, load_level
from game.ui import store
from game.ui.play import PlayScreen
from game.ui.render import palette as P
from game.ui.render import play_panels as panels
from game.ui.render.text import blit_text, ellipsize, font
from game.words import plural

BG = (24, 25, 31)
TOP_H = 64
BLOCK_W = 330
ROW_H = 26
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass
class Item:
    """One clickable level: where its file is, what to call it, its id in the scoreboard."""

    path: Path
    label: str
    level_id: str
    detail: str = ""
    human: float | None = None
    action: Any = None  # a callable returning the next screen, for entries that are not levels
    rect: pygame.Rect = field(default_factory=pygame.Rect)


@dataclass
class Block:
    """A seeds x orders table of one category and agent count."""

    title: str
    seeds: list[int]
    orders: list[int]
    cells: dict[tuple[int, int], Item]
    rect: pygame.Rect = field(default_factory=pygame.Rect)


LISTS = (("Tutorials", "tutorial"), ("Scenarios", "scenarios"), ("Collaboration", "collab"))


def tutorial_items(suite: str = "tutorial") -> list[Item]:
    """The numbered levels of a small hand-made suite (tutorials, scenarios, collab)."""
    try:
        from game.levels.suite import suite_levels
    except ImportError:
        return []
    items = []
    try:
        paths = suite_levels(suite)
    except (KeyError, ValueError, OSError):
        return []
    for n, path in enumerate(paths, 1):
        try:
            level = load_level(path)
        except LevelError as e:
            items.append(Item(path, f"{n}. {path.stem} (broken: {e})", path.stem))
            continue
        detail = f"{plural(len(level.agents), 'agent')}, {plural(len(level.orders), 'order')}"
        items.append(
            Item(
                path,
                f"{n}. {level.title or level.name}",
                str(level.meta.get("id") or path.stem),
                detail + "  -  " + " ".join(level.description.split()),
            )
        )
    return items


def suite_blocks() -> dict[str, list[Block]]:
    """difficulty -> blocks (one per category and agent count) of the suite levels on disk.
    The suite's kitchens are not the paper's, so no published human time is shown on them."""
    try:
        from game.levels.suite import suite_tasks
    except ImportError:
        return {}
    return task_blocks([(t.category, t.seed, t.agents, t.orders, t.path()) for t in suite_tasks()], {})


def task_blocks(
    tasks: list[tuple[str, int, int, int, Path]], humans: dict[str, float]
) -> dict[str, list[Block]]:
    """difficulty -> seeds x orders blocks of (category, seed, agents, orders, file) tasks;
    `humans` maps a task id to its published human time."""
    from game.levels.task import DIFFICULTY

    out: dict[str, list[Block]] = {}
    blocks: dict[tuple[str, int], Block] = {}
    for category, seed, agents, orders, path in tasks:
        if not path.is_file():
            continue
        key = (category, agents)
        if key not in blocks:
            blocks[key] = Block(f"{category}  -  {plural(agents, 'agent')}", [], [], {})
            out.setdefault(DIFFICULTY.get(category, "other"), []).append(blocks[key])
        block = blocks[key]
        if seed not in block.seeds:
            block.seeds.append(seed)
        if orders not in block.orders:
            block.orders.append(orders)
        task_id = f"{category}/seed_{seed}/agent_num_{agents}/orders_num_{orders}"
        block.cells[(seed, orders)] = Item(
            path,
            f"{category}, seed {seed}, {agents} agents, {orders} orders",
            task_id,
            human=humans.get(task_id),
        )
    for block in blocks.values():
        block.seeds.sort()
        block.orders.sort()
    return {d: out[d] for d in (*DIFFICULTIES, "other") if d in out}


PAPER_FILE = "*/seed_*/agent_num_*/orders_num_*.yaml"


def paper_blocks(root: Path | None = None) -> dict[str, list[Block]]:
    """The paper's tasks installed by `levels import-paracook`, the human-study ones marked."""
    from game.levels.paper import read_index

    root = root or store.installed_paracook_dir()
    tasks = []
    for f in sorted(root.glob(PAPER_FILE)) if root.is_dir() else ():
        try:
            tasks.append((f.parts[-4], int(f.parts[-3][5:]), int(f.parts[-2][10:]), int(f.stem[11:]), f))
        except ValueError:
            continue
    humans = {h.task_id: h.time for h in read_index(root)}
    return task_blocks(tasks, humans)


def study_item(size: tuple[int, int]) -> Item:
    """The entry that opens a study session over the paper's human-study tasks."""
    from game.study.levels import human_study_files

    files = human_study_files(store.installed_paracook_dir())
    detail = (
        f"a timed session over the {len(files)} human-study tasks, in a shuffled order"
        if files
        else "install the paper's tasks first: paracook-kitchen levels import-paracook PATH"
    )

    def start(back: Any) -> Any:
        from game.ui.screens.study import StudySetupScreen

        return StudySetupScreen(files, back=back, size=size)

    return Item(Path(), "Start a study session", "study:human", detail, action=start)


# The line under the title, longest first: a narrow window gets a shorter one, not a cut sentence.
SUBTITLES = (
    "Pick a level to plan: tutorials, a study session, the paper's tasks, the suite, scenarios, "
    "collaboration. Times are your best (h = the ParaCook human study, on the paper's own kitchen). "
    "Wheel or PgUp/PgDn scroll; arrows + Enter pick.",
    "Pick a level to plan. Times are your best (h = the ParaCook human study, on the paper's own "
    "kitchen). Wheel or PgUp/PgDn scroll; arrows + Enter pick.",
    "Pick a level. Times: your best (h = the paper's human time). Wheel scrolls; arrows + Enter pick.",
)


class BrowserScreen:
    """Lists the levels; picking one opens the play screen, which comes back here."""

    def __init__(self, size: tuple[int, int] | None = None):
        surface = pygame.display.get_surface()
        self.size = size or (surface.get_size() if surface else (1440, 900))
        self.lists = [(heading, tutorial_items(suite)) for heading, suite in LISTS]
        self.tutorials = self.lists[0][1]
        self.suite = suite_blocks()
        self.paper = paper_blocks()
        self.study = [study_item(self.size)]
        self.scroll = 0
        self.content_h = 0
        self.mouse: tuple[int, int] | None = None
        self.focus = 0
        self.notice: tuple[str, list[str]] | None = None
        self.best: dict[str, float] = {}
        self._scores_mtime: float | None = -1.0
        self._dirty = True
        self._next: Any = self
        self.refresh_scores()

    # -- data -------------------------------------------------------------------------------------
    def items(self) -> list[Item]:
        """Every pickable level, in the order they are drawn (arrow keys follow it)."""
        out = list(self.lists[0][1]) + self.study
        for blocks in [*self.paper.values(), *self.suite.values()]:
            for block in blocks:
                out += [
                    block.cells[(s, o)] for s in block.seeds for o in block.orders if (s, o) in block.cells
                ]
        return out + [item for _, items in self.lists[1:] for item in items]

    def refresh_scores(self) -> None:
        mtime = store.scores_stamp()
        if mtime != self._scores_mtime:
            self._scores_mtime = mtime
            self.best = store.best_by_id()
            self._dirty = True

    def open_item(self, item: Item) -> None:
        if item.action is not None:
            self._next = item.action(self)
            return
        try:
            level = load_level(item.path)
        except LevelError as e:
            self.notice = ("This level cannot be opened", str(e).splitlines())
            return
        self._next = PlayScreen(level, back=self, size=self.size)

    # -- Screen protocol ------------------------------------------------------------------------------
    def needs_draw(self) -> bool:
        return self._dirty

    def handle(self, event: pygame.event.Event) -> None:
        self._dirty = True
        if event.type == pygame.WINDOWLEAVE:
            self.mouse = None  # the tooltip leaves with the mouse
        if event.type == pygame.MOUSEMOTION:
            self.mouse = event.pos
        if self.notice is not None:
            if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
                self.notice = None
            return
        if event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * 60)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            item = self.item_at(event.pos)
            if item is not None:
                self.open_item(item)
        elif event.type == pygame.KEYDOWN:
            self._on_key(event.key)

    def _on_key(self, key: int) -> None:
        items = self.items()
        if not items:
            return
        step = {pygame.K_DOWN: 1, pygame.K_RIGHT: 1, pygame.K_TAB: 1, pygame.K_UP: -1, pygame.K_LEFT: -1}
        if key in step:
            self.focus = (self.focus + step[key]) % len(items)
            self._show(items[self.focus].rect)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.open_item(items[self.focus])
        elif key == pygame.K_PAGEDOWN:
            self.scroll_by(self.size[1] - TOP_H - 40)
        elif key == pygame.K_PAGEUP:
            self.scroll_by(-(self.size[1] - TOP_H - 40))
        elif key == pygame.K_HOME:
            self.scroll = 0
        elif key == pygame.K_ESCAPE:
            self._next = None

    def update(self, dt: float) -> Any:
        self.refresh_scores()
        nxt, self._next = self._next, self  # a hand-over happens once; coming back, this screen stays
        return nxt

    def resize(self, size: tuple[int, int]) -> None:
        self.size = size
        self.scroll_by(0)
        self._dirty = True

    def scroll_by(self, dy: int) -> None:
        top = max(0, self.content_h - (self.size[1] - TOP_H))
        self.scroll = min(top, max(0, self.scroll + dy))

    def _show(self, rect: pygame.Rect) -> None:
        """Scroll so a focused item (rect in screen coordinates) is on screen."""
        if rect.top < TOP_H:
            self.scroll_by(rect.top - TOP_H - 40)
        elif rect.bottom > self.size[1]:
            self.scroll_by(rect.bottom - self.size[1] + 40)

    def item_at(self, pos: tuple[int, int]) -> Item | None:
        if pos[1] < TOP_H:
            return None
        for item in self.items():
            if item.rect.collidepoint(pos):
                return item
        return None

    # -- drawing -----------------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        self._dirty = False
        surface.fill(BG)
        y = TOP_H + 16 - self.scroll
        y = self._draw_list(surface, y, *self.lists[0])
        y = self._draw_list(surface, y, "Study", self.study)
        for difficulty, blocks in self.paper.items():
            y = self._draw_difficulty(surface, y, difficulty, blocks, "ParaCook benchmark: ")
        for difficulty, blocks in self.suite.items():
            y = self._draw_difficulty(surface, y, difficulty, blocks, "Suite: ")
        for heading, items in self.lists[1:]:
            y = self._draw_list(surface, y, heading, items)
        if not self.items():
            blit_text(
                surface,
                "No levels found. `paracook-kitchen levels generate` writes the suite.",
                (24, y),
                22,
                P.TEXT,
            )
        self.content_h = y + self.scroll - TOP_H + 20
        self._draw_focus(surface)
        self._draw_top(surface)
        if self.notice is not None:
            panels.draw_notice(surface, *self.notice)
        else:
            self._draw_tooltip(surface)

    def _draw_top(self, surface: pygame.Surface) -> None:
        pygame.draw.rect(surface, P.PANEL, (0, 0, self.size[0], TOP_H))
        blit_text(surface, "ParaCook Kitchen", (20, 10), 34, P.TEXT, bold=True)
        room = self.size[0] - 40
        text = next((t for t in SUBTITLES if font(17).size(t)[0] <= room), SUBTITLES[-1])
        blit_text(surface, ellipsize(text, room, 17), (20, 42), 17, P.TEXT_DIM)

    def _draw_list(self, surface: pygame.Surface, y: int, heading: str, items: list[Item]) -> int:
        if not items:
            return y
        w = self.size[0] - 48
        y = panels.heading(surface, heading, 24, y, w) + 4
        for item in items:
            item.rect = pygame.Rect(24, y, w, 30)
            hovered = self.mouse is not None and item.rect.collidepoint(self.mouse)
            pygame.draw.rect(surface, P.PANEL_LIGHT if hovered else P.PANEL, item.rect, border_radius=6)
            blit_text(
                surface,
                ellipsize(item.label, 270, 22),
                (item.rect.x + 12, item.rect.centery),
                22,
                P.TEXT,
                bold=True,
                anchor="midleft",
            )
            best = self.best.get(item.level_id)
            right = f"best {panels.fmt(best)}" if best is not None else "not played yet"
            right = "" if item.action is not None else right
            blit_text(
                surface,
                right,
                (item.rect.right - 12, item.rect.centery),
                20,
                panels.SERVED if best is not None else P.TEXT_DIM,
                anchor="midright",
            )
            blit_text(
                surface,
                ellipsize(item.detail, w - 460, 17),
                (item.rect.x + 300, item.rect.centery),
                17,
                P.TEXT_DIM,
                anchor="midleft",
            )
            y += 34
        return y + 16

    def _draw_difficulty(
        self, surface: pygame.Surface, y: int, difficulty: str, blocks: list[Block], prefix: str = ""
    ) -> int:
        w = self.size[0] - 48
        cats = sorted({b.title.split()[0] for b in blocks})
        title = ellipsize(f"{prefix}{difficulty.capitalize()}  ({', '.join(cats)})", w, 22)
        y = panels.heading(surface, title, 24, y, w) + 6
        bw = max(BLOCK_W, min(480, (w - 32) // 3))
        per_row = max(1, (w + 16) // (bw + 16))
        row_h, col, category = 0, 0, blocks[0].title.split()[0] if blocks else ""
        for block in blocks:  # one category per row when the window is wide enough
            if col == per_row or (block.title.split()[0] != category and col):
                y, row_h, col = y + row_h + 16, 0, 0
            category = block.title.split()[0]
            row_h = max(row_h, self._draw_block(surface, 24 + col * (bw + 16), y, block, bw))
            col += 1
        return y + row_h + 28

    def _draw_block(self, surface: pygame.Surface, x: int, y: int, block: Block, width: int) -> int:
        h = 30 + 22 + ROW_H * len(block.seeds) + 6
        block.rect = pygame.Rect(x, y, width, h)
        pygame.draw.rect(surface, P.PANEL, block.rect, border_radius=8)
        blit_text(surface, ellipsize(block.title, width - 20, 21), (x + 10, y + 7), 21, P.TEXT, bold=True)
        cell_w = (width - 76) // max(1, len(block.orders))
        for j, n in enumerate(block.orders):
            blit_text(
                surface,
                plural(n, "order"),
                (x + 70 + j * cell_w + cell_w // 2, y + 32),
                15,
                P.TEXT_DIM,
                anchor="midtop",
            )
        for i, seed in enumerate(block.seeds):
            cy = y + 52 + i * ROW_H
            blit_text(surface, f"seed {seed}", (x + 10, cy + ROW_H // 2), 16, P.TEXT_DIM, anchor="midleft")
            for j, n in enumerate(block.orders):
                item = block.cells.get((seed, n))
                if item is not None:
                    item.rect = pygame.Rect(x + 70 + j * cell_w, cy + 1, cell_w - 4, ROW_H - 3)
                    self._draw_cell(surface, item)
        return h

    def _draw_cell(self, surface: pygame.Surface, item: Item) -> None:
        hovered = self.mouse is not None and item.rect.collidepoint(self.mouse)
        pygame.draw.rect(surface, (78, 82, 96) if hovered else P.PANEL_LIGHT, item.rect, border_radius=4)
        if item.human is not None:
            pygame.draw.rect(surface, panels.NEXT, item.rect, 1, border_radius=4)
        best = self.best.get(item.level_id)
        human = "h " + panels.fmt(item.human) if item.human else "-"
        text = panels.fmt(best) if best is not None else human
        colour = panels.SERVED if best is not None else (panels.NEXT if item.human else P.GREYED)
        blit_text(surface, text, item.rect.center, 17, colour, bold=best is not None, anchor="center")

    def _draw_focus(self, surface: pygame.Surface) -> None:
        items = self.items()
        if items and self.focus < len(items):
            rect = items[self.focus].rect.inflate(4, 4)
            pygame.draw.rect(surface, (255, 255, 255), rect, 2, border_radius=6)

    def _draw_tooltip(self, surface: pygame.Surface) -> None:
        item = self.item_at(self.mouse) if self.mouse else None
        if item is None:
            return
        lines = [item.label]
        best = self.best.get(item.level_id)
        if item.action is None:
            lines.append(
                f"your best: {panels.fmt(best)}" if best is not None else "you have not finished it yet"
            )
        if item.human is not None:
            lines.append(f"ParaCook human study: {panels.fmt(item.human)} (this very task)")
        lines.append("click to start" if item.action is not None else "click to plan it")
        panels.draw_tooltip(surface, self.mouse, lines)
