"""Games per second for every playable game, mode and bot, on one core and on every core.

Not a test: a script that prints a table, to run on the machine whose figures the README shows.

    .venv/bin/python benchmarks/sim_bench.py              # every game, mode and bot, about 2 s each
    .venv/bin/python benchmarks/sim_bench.py --seconds 5 --game symbiosis --bot greedy

Every game registered in cardtool.games that implements PlayableGame is measured on the first shipped
deck of that game (decks/*/deck.yaml), with the most players its mode allows up to four. Three figures:
  play     the engine and bots alone (cardtool.engine.playout.play), one core
  sim 1    `cardtool simulate` as it runs (records included), --jobs 1
  sim all  the same on every core (process pool), --jobs <cores>
A game that cannot be played or recorded yet is listed with the reason.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.playout import play  # noqa: E402
from cardtool.engine.seeds import derive_seed  # noqa: E402
from cardtool.errors import CardtoolError  # noqa: E402
from cardtool.games import GAMES  # noqa: E402
from cardtool.games.plugin import PlayableGame, RecordsGames  # noqa: E402
from cardtool.sim.config import DEFAULT_MAX_TURNS, prepare  # noqa: E402
from cardtool.sim.runner import run  # noqa: E402


def shipped_deck(game: str):
    for manifest in sorted((ROOT / "decks").glob("*/deck.yaml")):
        if f"game: {game}" in manifest.read_text(encoding="utf-8"):
            try:
                return load_deck(manifest.parent)
            except CardtoolError:
                continue
    return None


def engine_rate(plugin, deck, players: int, mode: str, bot: str, seconds: float) -> float:
    """Games per second of play() alone, one core."""
    games, started = 0, time.perf_counter()
    while games == 0 or time.perf_counter() - started < seconds:
        game = plugin.new_game(deck, players, mode, derive_seed(1, games))
        play(game, [plugin.bots[bot](game.public(seat)) for seat in range(players)], max_turns=DEFAULT_MAX_TURNS)
        games += 1
    return games / (time.perf_counter() - started)


def sim_rate(deck, players: int, mode: str, bot: str, games: int, jobs: int) -> float:
    setup = prepare(deck, games=games, players=players, mode=mode, bots=bot, seed=1)
    return run(setup, jobs).games_per_second


def _rate(games_per_second: float) -> str:
    return f"{games_per_second:,.1f}" if games_per_second < 10 else f"{games_per_second:,.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="about how long each measurement runs")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--bot", help="only this bot")
    parser.add_argument("--mode", help="only this mode")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"cardtool simulation benchmark: {cores} core(s), Python {sys.version.split()[0]}")
    print(f"{'game':<11} {'mode':<9} {'players':>7} {'bot':<8} {'play':>9} {'sim 1':>9} {f'sim {cores}':>9}  (games/s)")
    for name, plugin in GAMES.items():
        if args.game and name != args.game:
            continue
        if not isinstance(plugin, PlayableGame):
            print(f"{name:<11} not playable yet (no PlayableGame): nothing to measure")
            continue
        deck = shipped_deck(name)
        if deck is None:
            print(f"{name:<11} no valid shipped deck to measure with")
            continue
        recorded = isinstance(plugin, RecordsGames)
        for mode in plugin.modes:
            if args.mode and mode != args.mode:
                continue
            allowed = plugin.players_for(deck, mode)
            if not allowed:
                continue
            players = min(allowed[-1], 4) if allowed.start <= 4 else allowed.start
            for bot in plugin.bots:
                if args.bot and bot != args.bot:
                    continue
                alone = engine_rate(plugin, deck, players, mode, bot, args.seconds)
                if recorded:
                    games = max(1, int(alone * args.seconds))
                    one = sim_rate(deck, players, mode, bot, games, 1)
                    every = sim_rate(deck, players, mode, bot, max(games * cores, cores), cores)
                    sims = f"{_rate(one):>9} {_rate(every):>9}"
                else:
                    sims = f"{'(no records yet)':>19}"
                print(f"{name:<11} {mode:<9} {players:>7} {bot:<8} {_rate(alone):>9} {sims}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
