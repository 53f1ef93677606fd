"""How strong and how fast the search bots are: two-player games of a search bot against `greedy`.

Not a test: a script that prints the figures the README's Benchmarks section shows, beside the targets
of issue 13 (with the default budget: at most 100 ms a decision, median, one core; in two-player
Ecologies at least 60% wins against greedy with the lower end of the 95% interval above 55%; in
Symbiosis Duel at least 70%).

    .venv/bin/python benchmarks/search_strength.py                    # 400 games of each game
    .venv/bin/python benchmarks/search_strength.py --games 60 --game ecologies
    .venv/bin/python benchmarks/search_strength.py --bot search:iters=48 --game symbiosis
    .venv/bin/python benchmarks/search_strength.py --game symbiosis --jobs 2  # the same games on 2 cores
    .venv/bin/python benchmarks/search_strength.py --game ecologies --games 200 --first 200  # games 201-400

Seats are rotated: the search bot plays first in even games and second in odd ones, each game dealt from
its own seed (derived from --seed and the game's number). A tie counts half a win. The time of a decision
is the wall-clock time of the search bot's `choose`, every call counted (also those with one legal action
or handed to its greedy policy), and the process's CPU time of the same calls; the medians over the
calls that weighed two or more actions are printed too.
"""

from __future__ import annotations

import argparse
import json
import os
from concurrent.futures import ProcessPoolExecutor
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardtool.deck.loader import load_deck  # noqa: E402
from cardtool.engine.bots import make_bots  # noqa: E402
from cardtool.engine.playout import play  # noqa: E402
from cardtool.engine.seeds import derive_seed  # noqa: E402
from cardtool.games import GAMES  # noqa: E402
from cardtool.sim.config import DEFAULT_MAX_TURNS  # noqa: E402
from cardtool.sim.stats import wilson  # noqa: E402

#: game -> (deck, two-player mode, target win rate, target lower end of the interval)
SETUPS = {
    "ecologies": ("decks/ecologies-bizarre-biomes", "multi", 0.60, 0.55),
    "symbiosis": ("decks/symbiosis", "duel", 0.70, None),
}
TARGET_MS = 100.0


class Timed:
    """A bot whose every decision is timed."""

    def __init__(self, bot, times: list[tuple[float, int]], cpu: list[float] | None = None):
        self.bot, self.times, self.name = bot, times, bot.name
        self.cpu = [] if cpu is None else cpu  # the process's CPU time a decision: one core's work

    def choose(self, observation, legal, rng):
        started, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(observation, legal, rng)
        self.times.append(((time.perf_counter() - started) * 1000.0, len(legal)))
        self.cpu.append((time.process_time() - cpu) * 1000.0)
        return action


def play_games(game_name: str, bot: str, opponent: str, seed: int, indices: range,
               quiet: bool) -> tuple[float, list[tuple[float, int]], list[float], list[float]]:
    """(wins of the measured bot, wall ms and legal actions of each of its decisions, CPU ms of each,
    the bot's result in each game: 1 a win, 0 a loss, a share of a tie)."""
    deck_dir, mode, _, _ = SETUPS[game_name]
    plugin, deck = GAMES[game_name], load_deck(ROOT / deck_dir)
    wins = 0.0
    times: list[tuple[float, int]] = []
    cpu: list[float] = []
    results: list[float] = []
    for index in indices:
        names = [bot, opponent] if index % 2 == 0 else [opponent, bot]
        searcher = index % 2
        game = plugin.new_game(deck, 2, mode, derive_seed(seed, index, game_name))
        bots = make_bots(names, plugin.bots, game)
        bots[searcher] = Timed(bots[searcher], times, cpu)
        state = play(game, bots, max_turns=DEFAULT_MAX_TURNS)
        winners = state.winners()
        results.append(1.0 / len(winners) if searcher in winners else 0.0)
        wins += results[-1]
        if not quiet:
            print(f"  {game_name} game {index + 1} ({indices.start + 1}-{indices.stop}): {bot} {wins:g} wins",
                  file=sys.stderr, flush=True)
    return wins, times, cpu, results


def measure(game_name: str, bot: str, opponent: str, games: int, seed: int, quiet: bool, jobs: int = 1,
            first: int = 0) -> dict:
    """Games `first..first+games-1` (the same games whatever `jobs`), split in `jobs` blocks played by as
    many processes."""
    _, _, target, lower_target = SETUPS[game_name]
    started = time.perf_counter()
    blocks = [range(first + games * j // jobs, first + games * (j + 1) // jobs) for j in range(jobs)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(play_games, *zip(*[(game_name, bot, opponent, seed, block, quiet)
                                                     for block in blocks])))
    else:
        parts = [play_games(game_name, bot, opponent, seed, blocks[0], quiet)]
    wins = sum(part[0] for part in parts)
    times = [entry for part in parts for entry in part[1]]
    cpu = [entry for part in parts for entry in part[2]]
    results = [entry for part in parts for entry in part[3]]
    low, high = wilson(wins, games)
    all_ms = [ms for ms, _ in times]
    weighed = [ms for ms, legal in times if legal > 1]
    result = {"game": game_name, "bot": bot, "opponent": opponent, "games": games, "first": first, "wins": wins,
              "rate": wins / games, "low": low, "high": high, "target": target, "lower_target": lower_target,
              "median_ms": statistics.median(all_ms), "median_weighed_ms": statistics.median(weighed or [0.0]),
              "decisions": len(all_ms), "seconds": time.perf_counter() - started,
              "median_cpu_ms": statistics.median(cpu), "load": os.getloadavg()[0], "results": results,
              "weighed_cpu_ms": [round(c, 3) for c, (_, legal) in zip(cpu, times) if legal > 1]}
    result["median_weighed_cpu_ms"] = statistics.median(result["weighed_cpu_ms"] or [0.0])
    return result


def verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def show(result: dict) -> None:
    rate, low, high = result["rate"], result["low"], result["high"]
    target, lower = result["target"], result["lower_target"]
    wins_ok = rate >= target and (lower is None or low > lower)
    want = f">= {target:.0%}" + (f", lower end > {lower:.0%}" if lower is not None else "")
    ms_ok = result["median_ms"] <= TARGET_MS
    part = f" (games {result['first'] + 1} to {result['first'] + result['games']})" if result["first"] else ""
    print(f"{result['game']}: {result['bot']} vs {result['opponent']}, {result['games']} seat-rotated games{part} "
          f"({result['seconds']:.0f} s)")
    print(f"  win rate   {rate:.1%} (95% Wilson {low:.1%} to {high:.1%})   target {want}: {verdict(wins_ok)}")
    print(f"  decision   median {result['median_ms']:.1f} ms over {result['decisions']} decisions "
          f"({result['median_weighed_ms']:.1f} ms over those weighing two or more actions)   "
          f"target <= {TARGET_MS:.0f} ms: {verdict(ms_ok)}")
    cpu_ok = result["median_cpu_ms"] <= TARGET_MS
    print(f"  CPU time   median {result['median_cpu_ms']:.1f} ms a decision ({result['median_weighed_cpu_ms']:.1f} ms "
          f"over those weighing two or more actions; one core's work, whatever else runs; "
          f"load average {result['load']:.1f} at the end)   target <= {TARGET_MS:.0f} ms: {verdict(cpu_ok)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per game (default 400)")
    parser.add_argument("--game", choices=[*SETUPS, "both"], default="both")
    parser.add_argument("--bot", default="search", help="the bot measured, with options (default search)")
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quiet", action="store_true", help="no progress line per game")
    parser.add_argument("--results", type=Path, help="write each game's result (1 a win of the measured bot, "
                        "0 a loss) to this JSON file, to compare two bots game by game on the same deals")
    parser.add_argument("--first", type=int, default=0, help="the number of the first game played (default 0): "
                        "a long run may be played in parts, game i being the same game in every part")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the games (default 1; the "
                        "same games and results, each decision still timed on one core)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.first < 0:
        parser.error("--games must be at least 1 and --first at least 0")
    for game_name in (SETUPS if args.game == "both" else [args.game]):
        result = measure(game_name, args.bot, args.opponent, args.games, args.seed, args.quiet, max(1, args.jobs),
                         args.first)
        show(result)
        if args.results is not None:
            kept = ("game", "bot", "opponent", "games", "first", "rate", "results", "weighed_cpu_ms")
            args.results.write_text(json.dumps({key: result[key] for key in kept}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
