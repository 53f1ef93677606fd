"""The bots `cardtool play --bots` knows for Ecologies, by name: the roster only. GreedyBot and its
Valuer live in greedy.py, SearchBot in search.py (re-exported here for old importers).

Imported by the plugin (__init__.py) and tests; imports greedy.py and search.py.
"""

from __future__ import annotations

from cardtool.engine.bots import RandomBot
from cardtool.games.ecologies.greedy import GreedyBot, Valuer
from cardtool.games.ecologies.search import SearchBot

__all__ = ["BOTS", "GreedyBot", "RandomBot", "SearchBot", "Valuer"]

#: The bots `cardtool play --bots` knows for Ecologies, by name.
BOTS = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "search": SearchBot,
}
