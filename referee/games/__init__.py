"""The game registry: every game Tableside knows, by short name.

>>> from referee import games
>>> [t.name for t in games.types()]                              # doctest: +SKIP
['deck-town', 'mongoose', 'pouches', 'pungo']
>>> game = games.get("pungo", players=["ann", "bob"], options={"arena": "3x4"})   # doctest: +SKIP

Each module in this package describes one game family: it defines ``GAME_TYPE`` (a
:class:`~referee.game.GameType`) and, once its rules are implemented, ``STATE`` (its
:class:`~referee.game.State` subclass). Modules are discovered on first use.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping
from typing import Any

from referee.game import Game, GameConfigError, GameType, State, configure


class Registry:
    def __init__(self) -> None:
        self._entries: dict[str, tuple[GameType, type[State] | None]] = {}

    def register(self, game_type: GameType, state_class: type[State] | None = None) -> None:
        if game_type.name in self._entries:
            raise ValueError(f"a game named {game_type.name!r} is already registered")
        self._entries[game_type.name] = (game_type, state_class)

    def types(self) -> list[GameType]:
        return [entry[0] for _, entry in sorted(self._entries.items())]

    def is_refereed(self, name: str) -> bool:
        return self._entry(name)[1] is not None

    def game_type(self, name: str) -> GameType:
        return self._entry(name)[0]

    def get(self, name: str, edition: str | None = None, players: int | Iterable[str] = 2,
            options: Mapping[str, Any] | None = None) -> Game:
        """A configured game: ``get("pouches", edition="1.9", players=3, options={...})``."""
        game_type, state_class = self._entry(name)
        return configure(game_type, edition, players, options, state_class)

    def from_json(self, data: Any) -> Game:
        """Rebuild a game from ``Game.to_json()``."""
        if not isinstance(data, dict) or not isinstance(data.get("game"), str):
            raise GameConfigError(f"a game is a JSON object with 'game', 'edition', 'players', 'options'; got {data!r}")
        return self.get(data["game"], data.get("edition"), data.get("players", 2), data.get("options"))

    def _entry(self, name: str) -> tuple[GameType, type[State] | None]:
        try:
            return self._entries[name]
        except KeyError:
            known = ", ".join(sorted(self._entries)) or "none"
            raise GameConfigError(f"no game named {name!r}; Tableside knows {known}") from None


def _discover() -> Registry:
    registry = Registry()
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        if hasattr(module, "GAME_TYPE"):
            registry.register(module.GAME_TYPE, getattr(module, "STATE", None))
    return registry


_registry: Registry | None = None


def registry() -> Registry:
    global _registry
    if _registry is None:
        _registry = _discover()
    return _registry


def types() -> list[GameType]:
    return registry().types()


def get(name: str, edition: str | None = None, players: int | Iterable[str] = 2,
        options: Mapping[str, Any] | None = None) -> Game:
    return registry().get(name, edition, players, options)


def from_json(data: Any) -> Game:
    return registry().from_json(data)
