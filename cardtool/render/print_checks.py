"""What `cardtool validate` checks of a deck's printing before anything is rendered: that every fitted
text can fit its box without going below the deck's text floors (deck.yaml `print:`), estimated from
font metrics (render/estimate.py) on a poker card, the size the layouts are drawn for. Other card sizes,
and the fixed sizes of labels in the templates, are measured in the real layout when rendering."""

from __future__ import annotations

from cardtool.deck.model import Deck
from cardtool.deck.source import DeckSource
from cardtool.issues import Report
from cardtool.render.context import FaceText, Frame
from cardtool.render.sheets import CARD_SIZES

TOO_SMALL = "text-below-floor"


def check_text_floors(deck: Deck, source: DeckSource | None, report: Report) -> None:
    """An error, located at the card, for each fitted field whose text would need a size below its floor.
    Reads each face's text from its game (front_text/back_text: no template or font library loads)."""
    from cardtool.games import get
    from cardtool.games.plugin import DrawsCards
    from cardtool.render.estimate import estimate, smallest_fitting

    plugin = get(deck.game)
    if not isinstance(plugin, DrawsCards):
        return  # a game that prints no cards has no text to fit
    renderer = plugin.faces(deck)
    if not hasattr(renderer, "front_text"):
        return  # a plugin's faces that do not say their text are measured when rendered
    frame = Frame.of(CARD_SIZES["poker"], 0.0)
    faces: dict[str, FaceText] = {}
    for card in deck.cards:
        for face in (renderer.front_text(card), renderer.back_text(card)):
            faces.setdefault(face.key, face)
    for face in faces.values():
        for spec in face.fields:
            paras = [p for p in face.texts.get(spec.name, ()) if p]
            if spec.box is None or not paras:
                continue
            width, height = spec.box[0] * frame.em, spec.box[1] * frame.em
            floor = face.floors.text if spec.kind == "text" else face.floors.label
            lowest = max(spec.minimum, floor)
            if estimate(paras, lowest, width, height, spec.one_line, spec.spacing).fits:
                continue
            need = smallest_fitting(paras, lowest, width, height, spec.one_line, spec.spacing)
            what = "gameplay text" if spec.kind == "text" else "label"
            setting = "print.text_floor" if spec.kind == "text" else "print.label_floor"
            needs = f"about {need:g} pt" if need else "less than 2 pt"
            report.error(TOO_SMALL, f"field '{spec.name}' does not fit its box on the {face.side} of a poker card "
                         f"even at {lowest:g} pt, the floor for {what} ({setting}): it would need {needs}",
                         location=_where(face, spec.name, source), card=face.card_id,
                         hint="shorten the text; `cardtool render` measures the real layout and says the same")


def _where(face: FaceText, field: str, source: DeckSource | None):
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
