"""Card pictures for the studio page, rendered as `render cards` lays them out and kept by content.

Each face's HTML (before fitting), with the stylesheet and the frame, is hashed; a face whose hash was
rendered before is not laid out again. So after an edit only the faces it changed go through WeasyPrint
(fitted as in print) and pypdfium2, and the rest keep their pictures.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cardtool.deck.model import Deck
from cardtool.errors import RenderError
from cardtool.render.sheets import SheetSpec

DPI = 150  # the page shows cards at about their printed size on a screen, sharp when zoomed twice
LIMIT = 4000  # pictures kept: a deck's faces and the last few versions of each


@dataclass(frozen=True)
class CardPicture:
    """One face as the page shows it: which card and side, and the hash its PNG is kept under."""

    key: str  # card:side
    card_id: str
    name: str
    side: str
    count: int
    digest: str


@dataclass(frozen=True)
class Rendered:
    """The faces of a deck, how many had to be laid out, and what could not be (overflow, bad art)."""

    pictures: tuple[CardPicture, ...]
    laid_out: int
    problems: tuple[tuple[str, str], ...]  # (card:side, message)


class PictureCache:
    """PNG bytes by content hash, oldest dropped first once LIMIT is passed."""

    def __init__(self) -> None:
        self._png: dict[str, bytes] = {}

    def get(self, digest: str) -> bytes | None:
        return self._png.get(digest)

    def __contains__(self, digest: str) -> bool:
        return digest in self._png

    def put(self, digest: str, png: bytes) -> None:
        self._png[digest] = png
        while len(self._png) > LIMIT:
            del self._png[next(iter(self._png))]


def render_faces(deck: Deck, cache: PictureCache, spec: SheetSpec = SheetSpec()) -> Rendered:
    """Every face of the deck (fronts, then each different back), laying out only those not in cache."""
    from cardtool.render.cards import DeckPrint, card_html
    from cardtool.render.fitting import with_sizes

    deck_print = DeckPrint(deck, spec.card, 0.0)
    faces = deck_print.faces(backs=True)
    counts = {card.id: card.count for card in deck_print.cards}
    digests = {}
    for face in faces:
        html = card_html(with_sizes(face, deck_print.frame), deck_print.frame)
        digests[face.key] = hashlib.sha256(
            "\0".join((str(deck_print.frame), deck_print.css, html, deck_print.base_url)).encode()).hexdigest()[:24]
    missing = [face for face in faces if digests[face.key] not in cache]
    problems = _lay_out(deck_print, missing, digests, cache) if missing else []
    pictures = tuple(CardPicture(f.key, f.card_id, f.name or f.card_id, f.side,
                                 counts.get(f.card_id, 1) if f.side == "front" else deck.size, digests[f.key])
                     for f in faces)
    return Rendered(pictures, len(missing), tuple(problems))


def _lay_out(deck_print, faces, digests: dict, cache: PictureCache) -> list[tuple[str, str]]:
    """Lay out faces together; when that fails (one face's text does not fit even at its smallest
    size, or its art is refused), each face alone, so one bad card does not hide the others."""
    try:
        _render(deck_print, faces, digests, cache)
        return []
    except RenderError as error:
        if len(faces) == 1:
            return [(faces[0].key, str(error))]
    problems = []
    for face in faces:
        problems += _lay_out(deck_print, [face], digests, cache)
    return problems


def _render(deck_print, faces, digests: dict, cache: PictureCache) -> None:
    from cardtool.render.fitting import fit
    from cardtool.render.images import pixels, rasterise
    from cardtool.render.impose import merge

    import io

    frame = deck_print.frame
    fitted, laid = fit(faces, frame, deck_print.lay_out)
    pdf = merge(laid.pdfs, laid.pages)
    size = pixels(frame.full_width, DPI), pixels(frame.full_height, DPI)
    for face, image in zip(fitted, rasterise(pdf, *size)):
        buffer = io.BytesIO()
        image.save(buffer, format="PNG", compress_level=1)
        cache.put(digests[face.key], buffer.getvalue())
