"""What one seat may know, and worlds dealt from it: the names bots import.

Trades are made openly (docs/rules/ecologies.md), so a card that changes hands by a trade, a forced
trade or from the discard pile is known to be in its new hand until it leaves; the discard pile is face
up. Everything else in the other hands and the deck is hidden, and a search bot deals it at random with
`sample_state(seat, observation, rng)`: a pure function of the public Seat and the observation, so a
world it deals never depends on the real game's seed or deck order.

The names live where the engine's layers need them: Observation and observe in view.py (below the
engine), world_game and sample_state in engine.py (which makes games), seat_table in table.py. Imported
by bots and the plugin; nothing of the engine imports this module.
"""

from __future__ import annotations

from cardtool.games.ecologies.engine import sample_state, world_game
from cardtool.games.ecologies.table import seat_table
from cardtool.games.ecologies.view import Observation, observe

__all__ = ["Observation", "observe", "sample_state", "seat_table", "world_game"]
