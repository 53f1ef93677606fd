"""The registry of games: the built-in games in one list, then any installed through entry points.

What lives here: `GAMES` (name -> plugin object) and `get`. A game is found by the `game:` of a deck.yaml.
Built-in games are the `BUILTIN` list below; a third-party game is a package that declares an entry point
in the group `cardtool.games` (in its pyproject: `[project.entry-points."cardtool.games"] mygame =
"mygame_package:PLUGIN"`) and installs with pip. Plugins are imported lazily, the first time a command
asks for that game (or lists every game), so `cardtool --version` imports none. A plugin that fails to
import is a GameError naming it and its entry point, never a traceback.

Who may import it: every layer that needs a game (cli, commands, deck, render, sim) asks here, and only
here; nothing outside cardtool/games/<game>/ imports that game's modules. The protocols a plugin
implements are in cardtool.games.plugin; docs/plugins.md explains them.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping

from cardtool.errors import CardtoolError

#: The built-in games: name (the deck.yaml `game:`) -> "module:attribute" of its plugin object.
BUILTIN: dict[str, str] = {
    "ecologies": "cardtool.games.ecologies:PLUGIN",
    "symbiosis": "cardtool.games.symbiosis:PLUGIN",
}
ENTRY_POINT_GROUP = "cardtool.games"


class GameError(CardtoolError):
    """A game plugin is installed but cannot be used (it fails to import, or is not a game)."""


def _entry_points() -> dict[str, str]:
    """Installed third-party games: name -> "module:attribute" (a built-in name cannot be taken over)."""
    from importlib.metadata import entry_points

    found = {}
    for point in entry_points(group=ENTRY_POINT_GROUP):
        if point.name not in BUILTIN:
            found.setdefault(point.name, point.value)
    return found


def _import(name: str, target: str):
    module_name, _, attribute = target.partition(":")
    try:
        plugin = importlib.import_module(module_name)
        for part in filter(None, attribute.split(".")):
            plugin = getattr(plugin, part)
    except Exception as exc:  # a broken plugin: say which, and why, without a traceback
        raise GameError(f"the game plugin '{name}' ({ENTRY_POINT_GROUP} entry point '{target}') cannot be "
                        f"loaded: {type(exc).__name__}: {exc}") from exc
    missing = [field for field in ("name", "title", "card_schema", "default_kind", "build", "check_source")
               if not hasattr(plugin, field)]
    if missing:
        raise GameError(f"the game plugin '{name}' ('{target}') is not a cardtool game: it has no "
                        + ", ".join(missing) + " (see docs/plugins.md)")
    if plugin.name != name:
        raise GameError(f"the game plugin '{name}' ('{target}') calls itself '{plugin.name}': the entry "
                        "point's name must be the plugin's name")
    return plugin


class _Registry(MutableMapping):
    """name -> plugin, each imported the first time it is asked for. Tests may set or delete entries."""

    def __init__(self) -> None:
        self._loaded: dict[str, object] = {}
        self._targets: dict[str, str] | None = None  # built-ins then entry points, read once

    def _all_targets(self) -> dict[str, str]:
        if self._targets is None:
            self._targets = {**BUILTIN, **_entry_points()}
        return self._targets

    def _target(self, name: str) -> str | None:
        return BUILTIN.get(name) or self._all_targets().get(name)  # a built-in needs no entry-point scan

    def __getitem__(self, name: str):
        if name not in self._loaded:
            target = self._target(name)
            if target is None:
                raise KeyError(name)
            self._loaded[name] = _import(name, target)
        return self._loaded[name]

    def __setitem__(self, name: str, plugin) -> None:
        self._all_targets()
        self._targets.setdefault(name, "")
        self._loaded[name] = plugin

    def __delitem__(self, name: str) -> None:
        self._loaded.pop(name, None)
        if self._all_targets().pop(name, None) is None:
            raise KeyError(name)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._loaded or self._target(name) is not None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._all_targets()))

    def __len__(self) -> int:
        return len(self._all_targets())


#: Every game: the built-ins, then those installed through the `cardtool.games` entry points.
GAMES = _Registry()


def get(name: str):
    """The plugin of a game by name: GameError when it is unknown (with a suggestion) or broken."""
    if name not in GAMES:
        from cardtool.suggest import did_you_mean

        hint = did_you_mean(name, list(GAMES))
        raise GameError(f"no game called '{name}'" + (f"; {hint}" if hint else "")
                        + f" (games: {', '.join(GAMES)})")
    return GAMES[name]
