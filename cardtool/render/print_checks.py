"""What `cardtool validate` checks of a deck's printing before anything is rendered: that every fitted
text can fit its box without going below the deck's text floors (deck.yaml `print:`), estimated from
font metrics (render/estimate.py) on a poker card, the size the layouts are drawn for. Other card sizes,
and the fixed sizes of labels in the templates, are measured in the real layout when rendering."""

from __future__ import annotations

from cardtool.deck.model import Deck
from cardtool.deck.source import DeckSource
from cardtool.issues import Report
from cardtool.render.context import Face, Frame
from cardtool.render.environment import render
from cardtool.render.sheets import CARD_SIZES

TOO_SMALL = "text-below-floor"


def check_text_floors(deck: Deck, source: DeckSource | None, report: Report) -> None:
    """An error, located at the card, for each fitted field whose text would need a size below its floor."""
    from cardtool.games import get
    from cardtool.games.plugin import DrawsCards
    from cardtool.render.estimate import estimate, paragraphs, smallest_fitting
    from cardtool.render.fitting import floor, with_sizes

    plugin = get(deck.game)
    if not isinstance(plugin, DrawsCards):
        return  # a game that prints no cards has no text to fit
    renderer = plugin.faces(deck)
    frame = Frame.of(CARD_SIZES["poker"], 0.0)
    faces: dict[str, Face] = {}
    for card in deck.cards:
        for face in (renderer.front(card), renderer.back(card)):
            faces.setdefault(face.key, face)
    for face in faces.values():
        measured = [f for f in face.fields if f.box is not None]
        if not measured:
            continue
        face = with_sizes(face, frame)
        texts = paragraphs(render(face.template, face=face, card=face.card, frame=frame))
        for spec in measured:
            width, height = spec.box[0] * frame.em, spec.box[1] * frame.em
            lowest = max(spec.minimum, floor(face, spec.kind))
            need = None
            for paras in texts.get(spec.name, ()):  # every box of the field must fit
                if paras and not estimate(paras, lowest, width, height, spec.one_line, spec.spacing).fits:
                    need = smallest_fitting(paras, lowest, width, height, spec.one_line, spec.spacing) or 0.0
                    break
            if need is None:
                continue
            what = "gameplay text" if spec.kind == "text" else "label"
            setting = "print.text_floor" if spec.kind == "text" else "print.label_floor"
            needs = f"about {need:g} pt" if need else "less than 2 pt"  # 0.0: nothing fits
            report.error(TOO_SMALL, f"field '{spec.name}' does not fit its box on the {face.side} of a poker card "
                         f"even at {lowest:g} pt, the floor for {what} ({setting}): it would need {needs}",
                         location=_where(face, spec.name, source), card=face.card_id,
                         hint="shorten the text; `cardtool render` measures the real layout and says the same")


def _where(face: Face, field: str, source: DeckSource | None):
    if source is None:
        return None
    if face.side == "back":
        return source.manifest_doc.locate(("print", "back")) if source.manifest_doc else None
    entry = source.cards.get(face.card_id)
    if entry is None:
        return None
    for name in (field, "flavor", "text", "name"):
        if name in entry.data or name in entry.moved:
            return entry.locate(name)
    return entry.locate("id")
