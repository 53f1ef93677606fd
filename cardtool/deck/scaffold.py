"""`cardtool new`: a valid, commented deck or expansion folder to start from."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from cardtool.deck.loader import load_deck
from cardtool.errors import UsageError
from cardtool.render.environment import render

SEASONS = (
    dict(id="spring", name="Spring", colour_name="pink", colour="#f29bc1"),
    dict(id="summer", name="Summer", colour_name="yellow", colour="#f2c94c"),
    dict(id="autumn", name="Autumn", colour_name="orange", colour="#e07b39"),
    dict(id="winter", name="Winter", colour_name="blue", colour="#6fa8dc"),
)
ANIMALS = (dict(id="frog", name="Frog", plural=""), dict(id="snail", name="Snail", plural=""),
           dict(id="dragonfly", name="Dragonfly", plural="Dragonflies"), dict(id="fish", name="Fish", plural="Fish"))


def slug(name: str) -> str:
    """A deck id from a name: 'Frozen and Deep' -> 'frozen-and-deep'."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    if not text:
        raise UsageError(f"'{name}' has no letters or digits to make a deck id from")
    return text


def new_deck(name: str, game: str, parent: Path) -> Path:
    """Write a new deck folder for `game` under parent; returns its path."""
    deck_id = slug(name)
    folder = parent / deck_id
    context = dict(id=deck_id, name=name, folder=folder, schema_root=_schema_root(folder))
    if game == "ecologies":
        files = {f: render(f"scaffold/ecologies/{f}.j2", **context)
                 for f in ("deck.yaml", "biomes.yaml", "organisms.yaml", "factors.yaml")}
    else:
        context.update(seasons=SEASONS, animals=ANIMALS, cards=_symbiosis_cards())
        files = {f: render(f"scaffold/symbiosis/{f}.j2", **context) for f in ("deck.yaml", "pond-life.yaml", "cards.yaml")}
    _write_folder(folder, files)
    return folder


def new_expansion(name: str, base: Path, parent: Path) -> Path:
    """Write a new expansion of the deck at `base` under parent; returns its path."""
    base_deck = load_deck(base)
    deck_id = slug(name)
    folder = parent / deck_id
    base_ref = os.path.relpath(Path(base).resolve(), (parent / deck_id).resolve())
    game = base_deck.game
    context = dict(id=deck_id, name=name, folder=folder, schema_root=_schema_root(folder), game=game,
                   base_name=base_deck.manifest.name, base_ref=base_ref, prefix=deck_id.split("-")[0])
    if game == "ecologies":
        from cardtool.games.ecologies.model import format_vp
        from cardtool.games.ecologies.webs import find_witness

        biome, witness = next(((code, w) for code in base_deck.biome_codes
                               if (w := find_witness(base_deck, code)) is not None), (None, None))
        if witness is None:
            raise UsageError(f"base deck {base} has no biome that can be healthy to build on")
        example = base_deck.card(witness["C3"])
        context.update(biome=biome, prey=[witness["C3"], witness["C2"]], example_id=example.id,
                       example_field="vp", example_value=f'"{format_vp(example.vp + 1)}"')
        cards = render("scaffold/expansion/ecologies-cards.yaml.j2", **context)
    else:
        first = base_deck.cards[0]
        context.update(animal=first.animal, season=first.season, example_id=first.id, example_field="name",
                       example_value=f'"{first.name} II"')
        cards = render("scaffold/expansion/symbiosis-cards.yaml.j2", **context)
    _write_folder(folder, {"deck.yaml": render("scaffold/expansion/deck.yaml.j2", **context), "cards.yaml": cards})
    return folder


def _symbiosis_cards() -> list[dict]:
    """36 cards covering every Season x Animal pair and each scoring word, in a fixed order."""
    cards = []
    for i in range(36):
        season, animal = SEASONS[i % 4], ANIMALS[(i // 4 + i) % 4]
        kind = i % 3
        if kind == 0:
            scoring, label = f"{{rule: fixed, points: {2 + i % 5}}}", f"{2 + i % 5} Points"
        elif kind == 1:
            target = ANIMALS[(i + 1) % 4]
            scoring, label = f"{{rule: per_animal, animal: {target['id']}, points: 2}}", f"Friend of {target['name']}"
        else:
            target = SEASONS[(i + 2) % 4]
            scoring, label = f"{{rule: per_season, season: {target['id']}, points: 2}}", f"{target['name']} Lover"
        cards.append(dict(id=f"card-{i + 1:02d}", name=f"{season['name']} {animal['name']}: {label}",
                          animal=animal["id"], season=season["id"], scoring=scoring))
    return cards


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
            (staging / name).write_text(text, encoding="utf-8")
        staging.rename(folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
