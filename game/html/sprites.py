"""The page's pictures: the project's own procedural icons (game/ui/render/icons.py) and the
kitchen's background, rendered off-screen once and inlined as PNG data URIs."""

from __future__ import annotations

import base64
import io
import json
import os
from typing import Any

TILE = 48  # the background's tile size in pixels; the page scales it to fit
ITEM_SIZE = 64  # item sprites are drawn larger than they are shown, so they stay sharp when scaled


def _pygame() -> Any:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # off-screen: never open a window
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    import pygame

    if not pygame.font.get_init():
        pygame.font.init()
    return pygame


def png_uri(surface: Any) -> str:
    pygame = _pygame()
    buf = io.BytesIO()
    pygame.image.save(surface, buf, "sprite.png")
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def background_uri(level: Any) -> str:
    """Floor, walls and stations with their names, exactly as the viewer draws them."""
    _pygame()
    from game.ui.render.kitchen import KitchenRenderer

    return png_uri(KitchenRenderer(level, TILE).background())


class ItemSprites:
    """One sprite per distinct look of an item (kind and contents), shared by every frame."""

    def __init__(self) -> None:
        self.uris: list[str] = []
        self._index: dict[str, int] = {}

    def of(self, item: dict[str, Any]) -> int:
        _pygame()
        from game.ui.render.icons import item_icon, item_key

        key = json.dumps(item_key(item))
        if key not in self._index:
            self._index[key] = len(self.uris)
            self.uris.append(png_uri(item_icon(item, ITEM_SIZE)))
        return self._index[key]
