"""Games per second for every playable game, mode and bot, on one core and on every core; how a run
scales to two processes and to a Dask cluster; a long run's peak memory.

Not a test: a script that prints figures beside their targets, to run on the machine whose figures
the README shows. The machine's load (os.getloadavg) is printed beside every timing: a load above
the number of cores means other work shared the cores and the figures are low.

    .venv/bin/python benchmarks/sim_bench.py              # every game, mode and bot, about 2 s each
    .venv/bin/python benchmarks/sim_bench.py --seconds 5 --game symbiosis --bot greedy
    .venv/bin/python benchmarks/sim_bench.py --scaling     # 2 processes against 1, side by side (target 1.85x)
    .venv/bin/python benchmarks/sim_bench.py --memory 100000   # peak memory of a streamed run (target 500 MB)
    .venv/bin/python benchmarks/sim_bench.py --cluster     # throughput model on a local Dask cluster

Every game registered in cardtool.games that implements PlayableGame is measured on the first shipped
deck of that game (decks/*/deck.yaml), with the most players its mode allows up to four. Three figures:
  play     the engine and bots alone (cardtool.engine.playout.play), one core
  sim 1    `cardtool simulate` as it runs (records included), --jobs 1
  sim all  the same on every core (process pool), --jobs <cores>
A game that cannot be played or recorded yet is listed with the reason. The sims stream their
records to a games.jsonl in a temporary folder, as `cardtool simulate` does.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
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
from cardtool.sim.stream import GamesFile  # noqa: E402

import sim_scaling  # noqa: E402  (benchmarks/sim_scaling.py: --scaling, --memory, --cluster)


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
    with tempfile.TemporaryDirectory() as folder, GamesFile(Path(folder) / "games.jsonl") as sink:
        return run(setup, jobs, sink=sink).games_per_second


def _rate(games_per_second: float) -> str:
    return f"{games_per_second:,.1f}" if games_per_second < 10 else f"{games_per_second:,.0f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="about how long each measurement runs")
    parser.add_argument("--game", help="only this game")
    parser.add_argument("--bot", help="only this bot")
    parser.add_argument("--mode", help="only this mode")
    sim_scaling.add_arguments(parser)
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    if sim_scaling.wanted(args):
        return sim_scaling.main(args, shipped_deck("symbiosis"))
    print(f"cardtool simulation benchmark: {cores} core(s), Python {sys.version.split()[0]}, "
          f"{sim_scaling.load()}")
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
