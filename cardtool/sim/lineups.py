"""Several line-ups in one run (`simulate --lineups greedy*4 search*4 mixed`): what each word means and
the checked setups it gives, one per line-up, all under the same seed.

A line-up is a comma-separated list of bots in seat order, each optionally followed by `*K` for K
seats (`greedy*4`, `search*2,greedy*2`, `search:iters=48*2,random*2`); a line-up that gives no count
(`greedy`, `search,greedy`) is repeated to fill the seats, as --bots is. `mixed` is a table of mixed
skill: the game's bots from the strongest down (search, greedy, random for the built-in games),
repeated to fill the seats; with seats rotated each plays every seat equally often.

Every line-up must seat as many players as the others (a finding about seat 3 means nothing at a
table without one). Imported by cardtool.commands.simulate; imports cardtool.sim.config.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardtool.errors import UsageError
from cardtool.sim.config import Setup, prepare, simulated_game

MIXED = "mixed"
#: The order of strength `mixed` seats the bots in, strongest first; bots a game has beyond these follow.
STRENGTH_ORDER = ("search", "greedy", "random")


@dataclass(frozen=True)
class Lineup:
    """One line-up as typed (its label in every output) and its bots in seat order."""

    label: str
    bots: tuple[str, ...]
    counted: bool  # it says how many seats it has (a `*K` on every part)


def parse(text: str, roster: Sequence[str]) -> Lineup:
    """One --lineups word; a UsageError that quotes it when it is malformed."""
    label = text.strip()
    if not label:
        raise UsageError("--lineups: an empty line-up; write e.g. --lineups greedy*4 search*4 mixed")
    if label == MIXED:
        strongest = [name for name in STRENGTH_ORDER if name in roster]
        return Lineup(label, tuple(strongest + [name for name in roster if name not in strongest]), False)
    bots: list[str] = []
    counts = []
    for part in label.split(","):
        name, star, count = part.strip().rpartition("*") if "*" in part else ("", "", part.strip())
        if not star:
            name, count = count, ""
        name = name.strip()
        if not name:
            raise UsageError(f"--lineups '{label}': '{part.strip()}' names no bot (write NAME or NAME*SEATS)")
        if star:
            if not count.strip().isdigit() or int(count) < 1:
                raise UsageError(f"--lineups '{label}': '*{count.strip()}' after {name} is not a number of seats "
                                 "(write e.g. greedy*4)")
            bots += [name] * int(count)
        else:
            bots.append(name)
        counts.append(bool(star))
    return Lineup(label, tuple(bots), all(counts))


def setups(deck, words: Sequence[str], *, games: int, players: int | None, mode: str | None, seed: int,
           max_turns: int, rotate: bool) -> list[tuple[Lineup, Setup]]:
    """A checked setup per line-up, all with the same seed (game i of each deals the same cards: common
    random numbers, as compare uses), and all with the same number of seats."""
    plugin = simulated_game(deck)
    lineups = [parse(word, list(plugin.bots)) for word in words]
    labels = [lineup.label for lineup in lineups]
    repeated = sorted({label for label in labels if labels.count(label) > 1})
    if repeated:
        raise UsageError(f"--lineups names {', '.join(repeated)} more than once")
    counted = {len(lineup.bots) for lineup in lineups if lineup.counted}
    if len(counted) > 1:
        sizes = ", ".join(f"{lineup.label} {len(lineup.bots)}" for lineup in lineups if lineup.counted)
        raise UsageError(f"--lineups seat different numbers of players ({sizes}): every line-up must seat the "
                         "same table, or its findings about seats could not be compared")
    seats = players if players is not None else (counted.pop() if counted else None)
    if players is not None and counted and seats not in counted:
        raise UsageError(f"--lineups seat {counted.pop()} players, but --players is {players}")
    result = []
    for lineup in lineups:
        bots = lineup.bots if lineup.counted or seats is None else _fill(lineup.bots, seats)
        try:
            setup = prepare(deck, games=games, players=seats if seats is not None else None, mode=mode,
                            bots=",".join(bots), seed=seed, max_turns=max_turns, rotate=rotate)
        except UsageError as exc:
            raise UsageError(f"--lineups '{lineup.label}': {exc}") from None
        if seats is None:
            seats = setup.players  # the first line-up without counts fills the table the mode allows
        result.append((lineup, setup))
    if len({setup.players for _, setup in result}) > 1:
        raise UsageError("--lineups seat different numbers of players; give --players P or a *K on each line-up")
    return result


def _fill(bots: tuple[str, ...], seats: int) -> tuple[str, ...]:
    return tuple(bots[seat % len(bots)] for seat in range(seats))
