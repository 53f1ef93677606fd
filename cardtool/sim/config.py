"""A simulation's setup, checked in full before any game runs, and the deck's content hash.

`Setup` is everything a worker needs to play game i on its own (the deck travels with it), so the
same setup gives the same games in one process, in a pool or on a cluster.
"""

from __future__ import annotations

import copyreg
import hashlib
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from cardtool import __version__
from cardtool.deck import compose
from cardtool.deck.loader import manifest_path
from cardtool.deck.model import Deck, Manifest
from cardtool.deck.yamlsource import load_yaml
from cardtool.engine.bots import check_bot_names
from cardtool.engine.seeds import derive_seed
from cardtool.errors import UsageError
from cardtool.games import GAMES
from cardtool.games.plugin import PlayableGame, RecordsGames
from cardtool.issues import Report
from cardtool.suggest import did_you_mean

DEFAULT_MAX_TURNS = 1000


def _mappingproxy(mapping: dict) -> MappingProxyType:
    return MappingProxyType(mapping)


# A Deck keeps read-only mappings (card origins); let it travel to worker processes and cluster nodes.
copyreg.pickle(MappingProxyType, lambda proxy: (_mappingproxy, (dict(proxy),)))


@dataclass(frozen=True)
class Setup:
    """One simulation: the deck and how to play it, and which games (0..games-1) under which seed."""

    deck: Deck
    mode: str
    players: int
    lineup: tuple[str, ...]  # a bot name per seat, before rotation
    seed: int
    games: int
    max_turns: int
    rotate: bool = True  # game i seats the lineup turned by i places, so every bot plays every seat

    @property
    def game(self) -> str:
        return self.deck.game

    def game_seed(self, index: int) -> int:
        """The seed of game `index`: the same whichever process or machine plays it."""
        return derive_seed(self.seed, index)

    def bots_for(self, index: int) -> tuple[str, ...]:
        """The bot at each seat in game `index`."""
        if not self.rotate:
            return self.lineup
        shift = index % self.players
        return self.lineup[shift:] + self.lineup[:shift]

    def to_json(self) -> dict:
        """The effective configuration, as recorded in every output."""
        return {"game": self.game, "game_title": GAMES[self.game].title, "deck": self.deck.manifest.id,
                "deck_name": self.deck.manifest.name, "deck_version": self.deck.manifest.version,
                "standalone": self.deck.standalone, "bases": list(self.deck.bases), "mode": self.mode,
                "players": self.players, "bots": list(self.lineup), "seating": "rotate" if self.rotate else "fixed",
                "seed": self.seed, "games": self.games, "max_turns": self.max_turns, "cardtool": __version__}


def simulated_game(deck: Deck) -> PlayableGame:
    """The deck's game, or UsageError when it cannot be simulated yet."""
    plugin = GAMES[deck.game]
    if not isinstance(plugin, PlayableGame):
        raise UsageError(f"{plugin.title} decks cannot be simulated yet: the game has no rules engine "
                         "(it does not implement PlayableGame)")
    if not isinstance(plugin, RecordsGames):
        raise UsageError(f"{plugin.title} decks cannot be simulated yet: the game does not record its games "
                         "(it does not implement RecordsGames, see cardtool/games/plugin.py)")
    return plugin


def prepare(deck: Deck, *, games: int, players: int | None = None, mode: str | None = None,
            bots: str = "", seed: int = 0, max_turns: int = DEFAULT_MAX_TURNS, rotate: bool = True) -> Setup:
    """A checked setup: every misconfiguration is a UsageError here, before any game is played."""
    plugin = simulated_game(deck)
    if games < 1:
        raise UsageError(f"--games must be at least 1, not {games}")
    if max_turns < 1:
        raise UsageError(f"--max-turns must be at least 1, not {max_turns}")
    if mode is None:
        mode = plugin.modes[0]
    elif mode not in plugin.modes:
        hint = did_you_mean(mode, plugin.modes)
        raise UsageError(f"unknown mode '{mode}' for {plugin.title}" + (f"; {hint}" if hint else "")
                         + f" (modes: {', '.join(plugin.modes)})")
    allowed = plugin.players_for(deck, mode)
    if not allowed:
        raise UsageError(f"the {mode} mode cannot be played with this {deck.size}-card deck")
    names = [name.strip() for name in bots.split(",") if name.strip()]
    if players is None:  # several bots named: one seat each, as a reader of the command line expects
        players = len(names) if len(names) > 1 and len(names) in allowed else allowed[-1]
    elif players not in allowed:
        counts = str(allowed.start) if len(allowed) == 1 else f"{allowed.start} to {allowed[-1]}"
        others = [m for m in plugin.modes if players in plugin.players_for(deck, m)]
        raise UsageError(f"the {mode} mode is played by {counts} players with this {deck.size}-card deck, "
                         f"not {players}" + (f"; for {players} players use --mode {others[0]}" if others else ""))
    if not names:
        names = ["greedy" if "greedy" in plugin.bots else next(iter(plugin.bots))]
    check_bot_names(names, plugin.bots)
    if len(names) > players:
        raise UsageError(f"--bots names {len(names)} bots for {players} seats")
    lineup = tuple(names[seat % len(names)] for seat in range(players))
    # Make one game now: a setup the game itself refuses fails here, not in a worker.
    plugin.new_game(deck, players, mode, 0)
    return Setup(deck, mode, players, lineup, seed, games, max_turns, rotate)


def config_json(setup: Setup, deck_path: str | Path) -> dict:
    """The effective configuration with the deck's content hash and the command as typed."""
    return {**setup.to_json(), "deck_path": str(deck_path), "deck_hash": deck_hash(deck_path),
            "command": shlex.join(["cardtool", *sys.argv[1:]]) if sys.argv[1:] else "cardtool"}


def deck_hash(deck_path: str | Path) -> str:
    """SHA-256 over the deck's manifest and card files, then each base deck's (an expansion's bases
    change the combined game, and even which of its references a stand-alone expansion drops)."""
    digest = hashlib.sha256()
    for root, files in _deck_files(manifest_path(Path(deck_path)), set()):
        for file in files:
            digest.update(file.relative_to(root).as_posix().encode() + b"\0")
            digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def _deck_files(manifest: Path, seen: set[Path]):
    """(deck folder, its files in order) for a deck and, after it, each of its bases."""
    if manifest.resolve() in seen or not manifest.is_file():
        return
    seen.add(manifest.resolve())
    root = manifest.parent
    doc = load_yaml(manifest, Report())
    data = doc.data if doc is not None and isinstance(doc.data, dict) else {}
    files = [manifest]
    for pattern in data.get("cards") or ():
        if isinstance(pattern, str):
            files += sorted(p for p in root.glob(pattern) if p.is_file() and p not in files)
    yield root, files
    where = Manifest(id="", name="", version="", game="", card_files=(), root=root)
    for ref in data.get("extends") or ():
        folder = compose.resolve_base(str(ref), where, Report(), None)
        if folder is not None:
            yield from _deck_files(manifest_path(folder), seen)
