"""An expansion's rulebook insert: the pages a player keeps with the base game's rulebook.

The expansion is loaded combined with its bases, so every base biome, prey or predator its cards name
resolves, as at the table. The insert prints only what the expansion brings: its own rulebook sections,
its own cards and the base cards its update pack reprints (render/update_pack.py) in the game's tables
and index, what changes in the base set (cards to replace, cards to take out), and the game's generated
parts drawn from the combined game (an Ecologies insert's food webs). Chapters the base rulebook has
(how to read a card, the roles) are left to it. `cardtool render rulebook DECK --insert` writes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from cardtool.deck.model import Deck
from cardtool.errors import UsageError
from cardtool.render.context import deck_roots
from cardtool.render.environment import render
from cardtool.render.icon_links import icon_urls
from cardtool.render.rulebook import Rulebook, Slugs, book_pdf, generated_chapter, markdown_chapters
from cardtool.render.sheets import Paper
from cardtool.render.update_pack import Replaced


@dataclass(frozen=True)
class BaseChanges:
    """The typed context of templates/rulebook/insert.html.j2: what the expansion changes in its bases."""

    bases: str  # "Ecologies: Bizarre Biomes"
    replaced: tuple[Replaced, ...]
    removed: tuple[str, ...]  # names of base cards the combined game leaves out
    several: bool = False  # more than one base: say which each card comes from


def insert_context(deck: Deck, paper: Paper) -> Rulebook:
    """The rulebook insert of an expansion combined with its bases."""
    from cardtool import __version__
    from cardtool.games import get
    from cardtool.render.bases import base_decks
    from cardtool.render.cards import stylesheet
    from cardtool.render.update_pack import update_pack

    manifest = deck.manifest
    if not manifest.extends or deck.standalone:
        raise UsageError(f"--insert: deck '{manifest.id}' " + (
            "is taken alone (--standalone): an insert needs the base it goes with; leave out --standalone"
            if deck.standalone else "extends no base deck, so its rulebook is the whole book: leave out --insert"))
    plugin = get(deck.game)
    insert_parts = getattr(plugin, "rulebook_insert_parts", None)
    if insert_parts is None:
        raise UsageError(f"{plugin.title} cannot write a rulebook insert: its plugin has no "
                         "rulebook_insert_parts() (see docs/plugins.md)")
    bases = base_decks(deck)
    pack = update_pack(deck)
    if not pack.ids:
        raise UsageError(f"--insert: deck '{manifest.id}' defines no cards of its own and reprints none of its "
                         "bases' cards, so an insert would be empty; leave out --insert for the whole book")
    parts = insert_parts(deck, pack.own, tuple(card.card_id for card in pack.replaced))
    base_names = " and ".join(base.manifest.name for base in bases)
    slugs = Slugs()
    components = parts.components()
    chapters = [generated_chapter(slugs, "Components", render("rulebook/components.html.j2", components=components))]
    if pack.replaced or pack.removed:
        changes = BaseChanges(base_names, pack.replaced, tuple(name for _, name in pack.removed), len(bases) > 1)
        chapters.append(generated_chapter(slugs, "Changes to the base game",
                                          render("rulebook/insert.html.j2", changes=changes)))
    chapters += markdown_chapters(own_sections(deck, bases), parts.directives(), slugs, deck_roots(deck),
                                  icon_urls(deck))
    for title, html in parts.reference():
        chapters.append(generated_chapter(slugs, title, Markup(html)))
    title, _, subtitle = manifest.name.partition(":")
    versions = ", ".join(f"{base.manifest.name} version {base.manifest.version}" for base in bases)
    return Rulebook(
        title=title.strip(), subtitle=subtitle.strip() or f"An expansion for {base_names}",
        version=manifest.version, authors=manifest.authors, description=" ".join(manifest.description.split()),
        components=components.line, paper=paper, chapters=tuple(chapters), css=stylesheet("rulebook/rulebook.css"),
        kind="Rulebook insert",
        note=f"An insert for the rulebook of {base_names}: play by its rules, with the additions and changes "
             f"on these pages. It lists only the cards this expansion brings.",
        colophon=f"Insert for version {manifest.version} of {manifest.name}, to play with {versions}. Every "
                 f"count, table and picture in it is computed from the cards of the combined game, so it always "
                 f"agrees with them. Made with cardtool {__version__}.")


def insert_pdf(deck: Deck, paper: Paper) -> tuple[bytes, int]:
    """The rulebook insert PDF of an expansion combined with its bases, and its page count."""
    return book_pdf(deck, insert_context(deck, paper))


def own_sections(deck: Deck, bases: tuple[Deck, ...]) -> list[Path]:
    """The expansion's own rulebook sections: the combined deck's, less those its bases bring."""
    theirs = {Path(path).resolve() for base in bases for path in base.manifest.rulebook}
    return [Path(path) for path in deck.manifest.rulebook if Path(path).resolve() not in theirs]
