"""`cardtool play`: one game with bots and people at the terminal, told turn by turn.

Game-neutral: everything about the game comes through its plugin (cardtool.games.plugin.PlayableGame).
Every option is checked before the first turn, so a typo never starts a game.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from cardtool import __version__
from cardtool.commands.common import add_deck_argument, bots_help, caps_help, deck_from, file_path, modes_help
from cardtool.engine.bots import check_bot_names, make_bot
from cardtool.engine.human import HumanPlayer, fit
from cardtool.engine.playout import action_json, play
from cardtool.errors import UsageError
from cardtool.games import GAMES
from cardtool.games.plugin import PlayableGame
from cardtool.render.output import check_out_file
from cardtool.suggest import did_you_mean

NAME = "play"
HELP = "play one game with bots (and people at the terminal), with an account of every turn"
EXAMPLES = """\
examples:
  cardtool play decks/symbiosis --players 3 --mode standard --bots greedy,random,search --seed 7
  cardtool play decks/symbiosis --mode duel --bots search,greedy --seed 1
  cardtool play decks/symbiosis --mode team --bots greedy --human 1      # you play seat 1
  cardtool play decks/symbiosis --seed 3 --log game.jsonl --quiet        # only the final breakdown
  cardtool play decks/ecologies-bizarre-biomes --players 4 --bots greedy,greedy,random,search --seed 7
  cardtool play decks/ecologies-bizarre-biomes --mode single --human 1
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_deck_argument(parser, help="deck folder (or its deck.yaml)")
    parser.add_argument("--mode", help=f"how to play (default: the game's first mode). {modes_help()}. "
                                       f"{caps_help()}")
    parser.add_argument("--players", type=int, metavar="N", help="number of seats (default: as many as the "
                                                                 "mode and deck allow)")
    parser.add_argument("--bots", metavar="NAME[,NAME...]", default="",
                        help="the bot at each seat that is not a person, in seat order; one name fills "
                             f"every such seat (default greedy). {bots_help()}")
    parser.add_argument("--human", type=int, action="append", default=[], metavar="SEAT",
                        help="a person plays this seat (1 is the first to play), choosing from numbered "
                             "options on stdin; may be given more than once")
    parser.add_argument("--seed", type=int, help="the game's seed (default: a random one, printed)")
    parser.add_argument("--log", type=file_path, metavar="FILE.jsonl",
                        help="also write the game as JSON lines: the setup, each turn, the result")
    parser.add_argument("--quiet", action="store_true", help="print only the final breakdown, not every turn")


def run(args: argparse.Namespace) -> int:
    deck = deck_from(args)
    plugin = GAMES[deck.game]
    if not isinstance(plugin, PlayableGame):
        raise UsageError(f"cardtool play cannot play {plugin.title} decks yet")
    mode = _mode(plugin, args.mode)
    players = _players(plugin, deck, mode, args.players)
    humans = _humans(args.human, players)
    seats = _seat_bots(plugin, args.bots, players, humans)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 10**9)

    game = plugin.new_game(deck, players, mode, seed)
    names = [f"P{seat + 1}" for seat in range(players)]
    text = plugin.text(game, names)
    bots = [HumanPlayer(text.observation, text.action_parts) if name == "human"
            else make_bot(name, plugin.bots, game, seat) for seat, name in enumerate(seats)]
    out = sys.stdout
    log = _open_log(args.log)
    # A person reads at a terminal: lines wrapped to its 80 columns (the log keeps each line whole).
    shown = fit if "human" in seats else (lambda line: line)

    def write(record: dict) -> None:
        if log is not None:
            log.write(json.dumps(record) + "\n")

    write({"event": "start", "cardtool": __version__, "game": deck.game, "deck": deck.manifest.id,
           "deck_version": deck.manifest.version, "mode": mode, "players": players, "seed": seed,
           "seats": [{"seat": seat + 1, "player": name} for seat, name in enumerate(seats)]})
    turns = 0

    def on_turn(before, action, after) -> None:
        nonlocal turns
        turns += 1
        line = text.turn(before, action, after)
        if not args.quiet:
            print(shown(line), file=out)
        write({"event": "turn", "turn": turns, "seat": before.current_player + 1, "action": action_json(action),
               "text": line})

    try:
        state = game.new_initial_state()
        seated = (f"{name} {'(you)' if bot == 'human' else bot}" for name, bot in zip(names, seats))
        print(shown(f"Seats in turn order: {', '.join(seated)}."), file=out)
        if not args.quiet:
            print(shown(text.start(state)) + "\n", file=out)
        state = play(game, bots, on_turn=on_turn)
        print(shown(text.final(state)), file=out)
        print(shown(end_line(plugin, state)), file=out)
        write({"event": "end", "turns": turns, "turns_played": state.turns_played, "end_reason": state.end_reason,
               "scores": [_jsonable(s) for s in state.scores()], "winners": [seat + 1 for seat in state.winners()]})
    finally:
        if log is not None:
            log.close()
    if args.seed is None:
        print(f"\n(seed {seed}: add --seed {seed} to replay this game)", file=out)
    return 0


def end_line(plugin: PlayableGame, state) -> str:
    """'Game over after 31 turns: target (a player reached 12 VP).', and whether it counts as won."""
    reasons = {reason.word: reason for reason in getattr(plugin, "end_reasons", ())}
    reason = reasons.get(state.end_reason)
    line = f"Game over after {state.turns_played} turns: {state.end_reason}"
    if reason is None:
        return line + "."
    return line + f" ({reason.text})" + (": a cap, so nobody wins." if reason.cap else ".")


def _mode(plugin: PlayableGame, mode: str | None) -> str:
    if mode is None:
        return plugin.modes[0]
    if mode not in plugin.modes:
        hint = did_you_mean(mode, plugin.modes)
        raise UsageError(f"unknown mode '{mode}' for {plugin.title}" + (f"; {hint}" if hint else "")
                         + f" (modes: {', '.join(plugin.modes)})")
    return mode


def _players(plugin: PlayableGame, deck, mode: str, players: int | None) -> int:
    allowed = plugin.players_for(deck, mode)
    if not allowed:
        raise UsageError(f"the {mode} mode cannot be played with this {deck.size}-card deck")
    counts = str(allowed.start) if len(allowed) == 1 else f"{allowed.start} to {allowed[-1]}"
    if players is None:
        return allowed[-1]
    if players not in allowed:
        raise UsageError(f"the {mode} mode is played by {counts} players with this {deck.size}-card deck, "
                         f"not {players}" + ("; for two players use --mode duel" if "duel" in plugin.modes
                                             and players == 2 and mode != "duel" else ""))
    return players


def _humans(seats: list[int], players: int) -> set[int]:
    for seat in seats:
        if not 1 <= seat <= players:
            raise UsageError(f"--human {seat}: seats are numbered 1 to {players}")
    if len(set(seats)) != len(seats):
        raise UsageError("--human names the same seat twice")
    return {seat - 1 for seat in seats}


def _seat_bots(plugin: PlayableGame, spec: str, players: int, humans: set[int]) -> list[str]:
    """The player at each seat: 'human' or a bot name."""
    names = [name.strip() for name in spec.split(",") if name.strip()]
    if not names:
        names = ["greedy" if "greedy" in plugin.bots else next(iter(plugin.bots))]
    if "human" in names and "human" not in plugin.bots:
        raise UsageError("a person is not a bot: use --human SEAT for each seat a person plays")
    check_bot_names(names, plugin.bots)
    open_seats = players - len(humans)
    if len(names) == 1:
        names = names * open_seats
    elif len(names) != open_seats:
        raise UsageError(f"--bots names {len(names)} bots for {open_seats} seat(s) without a person: "
                         "give one name for every such seat, or a single name for all")
    bots = iter(names)
    return ["human" if seat in humans else next(bots) for seat in range(players)]


def _open_log(path: Path | None):
    if path is None:
        return None
    check_out_file(path, "log", flag="--log")  # never a folder, a deck's file, or another kind of file
    try:
        return path.open("w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the log {path}: {exc.strerror}") from None


def _jsonable(value):
    return value if isinstance(value, (int, float)) else str(value)
