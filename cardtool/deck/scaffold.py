"""`cardtool new`: a valid, commented deck or expansion folder to start from.

Game-neutral: the files of a game's deck come from its plugin (cardtool.games.plugin.Scaffolds);
here the folder is named, written at once, and never over an existing one.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from cardtool.deck.loader import load_deck
from cardtool.errors import UsageError
from cardtool.render.environment import render


def slug(name: str) -> str:
    """A deck id from a name: 'Frozen and Deep' -> 'frozen-and-deep'."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not text:
        raise UsageError(f"'{name}' has no letters or digits to make a deck id from")
    return text


def _scaffolds(game: str):
    """The game's plugin, which must know how to start a deck (cardtool.games.plugin.Scaffolds)."""
    from cardtool.games import get
    from cardtool.games.plugin import Scaffolds

    plugin = get(game)
    if not isinstance(plugin, Scaffolds):
        raise UsageError(f"{plugin.title} has no deck to start from: its plugin has no scaffold_deck() "
                         "(see docs/plugins.md); copy one of its example decks instead")
    return plugin


def new_deck(name: str, game: str, parent: Path) -> Path:
    """Write a new deck folder for `game` under parent; returns its path."""
    plugin = _scaffolds(game)
    deck_id = slug(name)
    folder = parent / deck_id
    context = dict(id=deck_id, name=name, folder=folder, schema_root=_schema_root(folder))
    _write_folder(folder, plugin.scaffold_deck(name, context))
    return folder


def new_expansion(name: str, base: Path, parent: Path) -> Path:
    """Write a new expansion of the deck at `base` under parent; returns its path."""
    base_deck = load_deck(base)
    plugin = _scaffolds(base_deck.game)
    deck_id = slug(name)
    folder = parent / deck_id
    base_ref = os.path.relpath(Path(base).resolve(), (parent / deck_id).resolve())
    context = dict(id=deck_id, name=name, folder=folder, schema_root=_schema_root(folder), game=base_deck.game,
                   base_name=base_deck.manifest.name, base_ref=base_ref, prefix=deck_id.split("-")[0],
                   base_path=str(base))
    kinds = list(dict.fromkeys(card.kind for card in base_deck.cards))
    context.update(select_by="id, tag, kind", include_example="{kinds: [" + ", ".join(kinds[:2]) + "]}")
    extra, cards = plugin.scaffold_expansion(base_deck, context)
    files = dict(extra.pop("files", {}))  # more files a game writes, e.g. a new biome's icon
    context.update(extra)  # a game may word the selectors its own way (select_by, include_example)
    _write_folder(folder, {"deck.yaml": render("scaffold/expansion/deck.yaml.j2", **context), "cards.yaml": cards,
                           **files})
    return folder


def _schema_root(folder: Path) -> str:
    """The schemas folder as a path relative to the new deck folder, for the editor lines."""
    from cardtool.resources import schemas_dir

    return os.path.relpath(schemas_dir(), folder.resolve())


def _write_folder(folder: Path, files: dict[str, str]) -> None:
    """Create the folder with its files all at once; never touch an existing folder."""
    if folder.exists():
        raise UsageError(f"{folder} already exists; choose another name or --dir")
    folder.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        for name, text in files.items():
            (staging / name).parent.mkdir(parents=True, exist_ok=True)
            # a final newline, so that appending with `>>` or an editor adds a line, never joins one
            (staging / name).write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
