"""One module per CLI command, each with the same shape: NAME, HELP, EXAMPLES, add_arguments, run.

What lives here: the game-neutral commands, listed in `GENERIC` (name -> module, help) so that the CLI
can list every command and parse one while importing only that one's module (heavy libraries such as
scipy, matplotlib and weasyprint are imported by the commands that use them, when they run). Games add
their own commands through their plugin (cardtool.games.plugin.HasCommands); `specs()` gives both, in
the order `cardtool --help` lists them. Who may import it: cardtool.cli, tests, and game command modules
(for cardtool.commands.common). It imports no game module.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cardtool.games.plugin import CommandSpec

_PACKAGE = "cardtool.commands"

#: The game-neutral commands before the games' own commands, in the order `cardtool --help` lists them.
BEFORE_GAMES = (
    CommandSpec("new", f"{_PACKAGE}.new",
                "create a new deck or expansion folder, valid and commented, to start designing from"),
    CommandSpec("validate", f"{_PACKAGE}.validate",
                "check decks against their schemas and rules and report every problem found"),
    CommandSpec("info", f"{_PACKAGE}.info",
                "print a deck's composition: copies by kind, and by biome and trophic role for Ecologies"),
    CommandSpec("cards", f"{_PACKAGE}.cards",
                "list a deck's cards: ids, names, kinds, copies and, for Ecologies, biomes, roles, VP and links"),
    CommandSpec("export", f"{_PACKAGE}.export", "write a deck's cards as a spreadsheet (csv, xlsx or ods), one "
                "sheet per kind, to edit and import back"),
    CommandSpec("import", f"{_PACKAGE}.importsheet", "merge edits from a spreadsheet (csv, xlsx or ods from "
                "cardtool export) back into a deck's YAML files"),
    CommandSpec("diff", f"{_PACKAGE}.diff",
                "print what changed between two versions of a deck: cards, fields, food-web links, healthy webs"),
)
#: ... and after them.
AFTER_GAMES = (
    CommandSpec("play", f"{_PACKAGE}.play",
                "play one game with bots (and people at the terminal), with an account of every turn"),
    CommandSpec("simulate", f"{_PACKAGE}.simulate", "play a deck many times with bots and report win rates, game "
                "length and card impact with their uncertainty"),
    CommandSpec("compare", f"{_PACKAGE}.compare",
                "simulate two decks under the same seeds and report which differences between them are significant"),
    CommandSpec("ladder", f"{_PACKAGE}.ladder",
                "play every pair of bots against each other and rate them, with 95% intervals"),
    CommandSpec("balance", f"{_PACKAGE}.balance", "search card values by simulation until the deck meets its "
                "balance targets, then check them on fresh seeds"),
    CommandSpec("render", f"{_PACKAGE}.render", "print a deck: card sheets (PDF), card images (PNG), the rulebook "
                "(PDF), a duplex alignment test"),
    CommandSpec("serve", f"{_PACKAGE}.serve", "show a deck's cards, validation issues, food webs and last "
                "simulation on a local web page that updates as its files change"),
    CommandSpec("build", f"{_PACKAGE}.build", "validate a deck and build everything into build/<deck-id>/: food-web "
                "report, cards PDF, card images, rulebook, a short simulation report and an index.html"),
)
GENERIC = {spec.name: spec for spec in BEFORE_GAMES + AFTER_GAMES}


def game_specs() -> list[tuple[str, CommandSpec]]:
    """(game name, spec) of every command the registered games add; GameError on a clash of names."""
    from cardtool.games import GAMES, GameError
    from cardtool.games.plugin import HasCommands

    found: dict[str, str] = {}
    specs = []
    for game in GAMES:
        plugin = GAMES[game]
        for spec in (plugin.commands if isinstance(plugin, HasCommands) else ()):
            owner = "cardtool" if spec.name in GENERIC else found.get(spec.name)
            if owner is not None:
                raise GameError(f"the game '{game}' adds a command '{spec.name}' that {owner} already has: "
                                "rename one of them")
            found[spec.name] = f"the game '{game}'"
            specs.append((game, spec))
    return specs


def specs() -> list[CommandSpec]:
    """Every command, in the order `cardtool --help` lists them: generic, the games' own, generic."""
    return [*BEFORE_GAMES, *(spec for _, spec in game_specs()), *AFTER_GAMES]


def load(spec: CommandSpec) -> ModuleType:
    """The command's module, imported now."""
    return importlib.import_module(spec.module)


def all_commands() -> tuple[ModuleType, ...]:
    """Every command's module, imported (for tests and docs checks; the CLI imports only the one it runs)."""
    return tuple(load(spec) for spec in specs())


def __getattr__(name: str):
    if name == "COMMANDS":  # the modules of every command, as tests and older code knew them
        return all_commands()
    raise AttributeError(name)
