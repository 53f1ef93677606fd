"""The explicit registry of games: adding a game is adding its package and one line here."""

from __future__ import annotations

from cardtool.games import ecologies, symbiosis
from cardtool.games.plugin import GamePlugin

GAMES: dict[str, GamePlugin] = {
    ecologies.PLUGIN.name: ecologies.PLUGIN,
    symbiosis.PLUGIN.name: symbiosis.PLUGIN,
}
