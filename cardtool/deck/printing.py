"""A deck's print settings (deck.yaml `print:`): its card back and the smallest text sizes it allows.

An expansion is shuffled into its base game, so it prints the base game's back unless it declares its
own, and then validation warns that mixed decks can be told apart from behind. Its text floors are its
base's unless it sets its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from cardtool.deck.model import Manifest
from cardtool.deck.yamlsource import SourceDoc
from cardtool.issues import Report

TEXT_FLOOR = 6.0  # pt: gameplay text (what a card does, what it eats) is never set smaller
LABEL_FLOOR = 5.0  # pt: labels, flavour text and captions
DISTINGUISHABLE = "distinguishable-back"


@dataclass(frozen=True)
class Back:
    """What a card back shows: the game's title and a subtitle."""

    title: str
    subtitle: str = ""


@dataclass(frozen=True)
class Floors:
    """The smallest sizes (pt) text may be set at: gameplay text and labels."""

    text: float = TEXT_FLOOR
    label: float = LABEL_FLOOR


def back_of(manifest: Manifest) -> Back:
    """The back a deck prints: `print.back`, else its name ('Ecologies: Bizarre Biomes' is title
    'Ecologies', subtitle 'Bizarre Biomes'); an expansion's manifest carries its base's (inherit)."""
    declared = (manifest.print or {}).get("back")
    if declared:
        return Back(str(declared["title"]).strip(), str(declared.get("subtitle", "")).strip())
    title, _, subtitle = manifest.name.partition(":")
    return Back(title.strip(), subtitle.strip())


def floors_of(manifest: Manifest) -> Floors:
    settings = manifest.print or {}
    return Floors(float(settings.get("text_floor", TEXT_FLOOR)), float(settings.get("label_floor", LABEL_FLOOR)))


def inherit(base: Manifest, own: Manifest, doc: SourceDoc, report: Report) -> Mapping:
    """The print settings of an expansion combined with (or printed to mix with) its base: the base's
    unless it sets its own, and the base's back unless it declares one, which is then a warning."""
    own_settings = dict(own.print or {})
    settings = {**dict(base.print or {}), **own_settings}
    base_back = back_of(base)
    if "back" in own_settings:
        back = back_of(own)
        if back != base_back:
            report.warning(DISTINGUISHABLE, f"print.back: this expansion declares its own card back ('{back.title}'), "
                           f"unlike its base game's ('{base_back.title}'): shuffled together, its cards can be told "
                           "apart from behind", location=doc.locate(("print", "back")), path=("print", "back"),
                           hint="leave out print.back to print the base game's back (an expansion played only on "
                                "its own may keep it)")
    else:
        settings["back"] = {"title": base_back.title, "subtitle": base_back.subtitle}
        settings["back_of_base"] = True  # the renderer draws the base game's back (render/bases.py)
    return settings
