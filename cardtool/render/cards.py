"""A deck's cards as PDFs: every different face laid out once, in ONE WeasyPrint document of one card a
page (trim plus bleed, with TrimBox and BleedBox: the print-on-demand PDF and the source of the images),
then imposed onto print-and-play sheets with crop marks and backs (render/impose.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup

from cardtool.deck.model import Card, Deck
from cardtool.errors import UnknownCardError, UsageError
from cardtool.render.context import Face, Frame, deck_roots
from cardtool.render.environment import environment, render
from cardtool.render.fitting import LaidOut, base_sizes, fit, render_html
from cardtool.render.impose import Note, SheetPage, Stamp, impose, merge
from cardtool.render.parallel import MAX_WORKERS, join, run_sliced, slices
from cardtool.render.reproducible import epoch
from cardtool.render.sheets import PRINT_NOTE, CardSize, Layout, SheetSpec, layout
from cardtool.suggest import did_you_mean


PARALLEL_FROM = 24  # faces: fewer are laid out in one process (a fork costs more than it saves)
LAYOUT_PARTS = MAX_WORKERS  # documents a long run of faces is laid out in, on any machine


@dataclass(frozen=True)
class SingleContext:
    """The typed context of templates/single.html.j2: one card a page, with its bleed."""

    title: str
    width: float
    height: float
    bleed: float
    cards: tuple[Markup, ...]
    css: Markup


@dataclass(frozen=True)
class Fitted:
    """A field whose text was shrunk to fit."""

    card_id: str
    field: str
    size: float
    layout_size: float


def select_cards(deck: Deck, only: str | None) -> tuple[Card, ...]:
    """The deck's cards, or only those named in a comma-separated list of ids (in deck order)."""
    if only is None:
        return deck.cards
    wanted = [i.strip() for i in only.split(",") if i.strip()]
    if not wanted:
        raise UsageError("--only needs card ids separated by commas")
    known = {card.id for card in deck.cards}
    for card_id in wanted:
        if card_id not in known:
            hint = did_you_mean(card_id, known)
            raise UnknownCardError(f"--only: deck '{deck.manifest.id}' has no card '{card_id}'"
                                   + (f"; {hint}" if hint else ""))
    return tuple(card for card in deck.cards if card.id in wanted)


def stylesheet(path: str) -> Markup:
    """A stylesheet from the templates folder, to inline in a document."""
    source, _, _ = environment().loader.get_source(environment(), path)
    return Markup(source)


def card_html(face: Face, frame: Frame) -> Markup:
    return Markup(render(face.template, face=face, card=face.card, frame=frame))


def faces_of(deck: Deck):
    """The face builder of a deck's game, asked of its plugin (cardtool.games.plugin.DrawsCards)."""
    from cardtool.games import get
    from cardtool.games.plugin import DrawsCards

    plugin = get(deck.game)
    if not isinstance(plugin, DrawsCards):
        raise UsageError(f"{plugin.title} cannot print its cards: its plugin has no faces() (see docs/plugins.md)")
    return plugin.faces(deck)


class DeckPrint:
    """The faces of (some of) a deck's cards at one card size, ready to lay out."""

    def __init__(self, deck: Deck, card: CardSize, bleed: float, only: str | None = None):
        self.deck = deck
        self.frame = Frame.of(card, bleed)
        self.renderer = faces_of(deck)
        self.cards = select_cards(deck, only)
        self.pairs = [(self.renderer.front(c), self.renderer.back(c)) for c in self.cards]
        self.css = stylesheet(self.renderer.stylesheet)
        self.base_url = Path(deck.manifest.root).resolve().as_uri() + "/"
        self.roots = deck_roots(deck)
        self.fitted: list[Fitted] = []

    def faces(self, backs: bool = True) -> list[Face]:
        """Every different face: the fronts in deck order, then each different back."""
        unique = {front.key: front for front, _ in self.pairs}
        if backs:
            unique.update({back.key: back for _, back in self.pairs})
        return list(unique.values())

    def _record(self, faces: list[Face]) -> None:
        self.fitted = [Fitted(f.card_id, name, size, base)
                       for f in faces for name, base in base_sizes(f, self.frame).items()
                       if (size := f.sizes[name]) < base]

    def single_html(self, faces: list[Face]) -> str:
        frame = self.frame
        context = SingleContext(self.deck.manifest.name, frame.width, frame.height, frame.bleed,
                                tuple(card_html(f, frame) for f in faces), self.css)
        return render("single.html.j2", doc=context)

    def _single_document(self, faces):
        return render_html(self.single_html(list(faces)), self.base_url, self.roots, f"deck {self.deck.manifest.id}")

    def lay_out(self, faces) -> LaidOut:
        """Faces one a page: a long run cut in LAYOUT_PARTS halves, each ONE WeasyPrint document; on two
        cores both are laid out at once, which takes about half the time. The cut does not depend on the
        machine's cores, so neither do the PDF's bytes (each part embeds its own font subsets)."""
        faces = list(faces)
        cuts = slices(len(faces), LAYOUT_PARTS if len(faces) >= PARALLEL_FROM else 1) or [(0, 0)]
        parts = run_sliced(lambda first, last: [LaidOut.of(self._single_document(faces[start:end]))
                                                for start, end in cuts[first:last]], len(cuts))
        return LaidOut.join(join(parts))

    def singles(self, backs: bool = True) -> tuple[list[Face], bytes]:
        """Each different face on its own page, trim size plus bleed, text fitted: (faces, PDF)."""
        epoch()  # a malformed SOURCE_DATE_EPOCH fails here, before any layout, not in a worker
        faces, laid = fit(self.faces(backs), self.frame, self.lay_out)
        self._record(faces)
        return faces, merge(laid.pdfs, laid.pages, self.deck.manifest.name)

    def sheets(self, spec: SheetSpec) -> tuple[Layout, bytes]:
        """The print-and-play PDF: fronts pages, each followed by its backs page unless duplex is none."""
        sheet = layout(spec)
        faces, singles = self.singles(backs=spec.duplex != "none")
        index = {face.key: i for i, face in enumerate(faces)}
        count = {card.id: card.count for card in self.cards}
        copies = [(index[front.key], index.get(back.key, -1)) for front, back in self.pairs
                  for _ in range(count[front.card_id])]
        return sheet, impose(singles, sheet_pages(sheet, copies), self.deck.manifest.name)


def sheet_pages(sheet: Layout, copies: list[tuple[int, int]]) -> list[SheetPage]:
    """For each run of cards a fronts page, then its backs page unless the sheet has no backs.

    copies holds, for every physical card, the singles pages of its front and its back."""
    total = sheet.pages(len(copies))
    flip = {"long": "turn over on the long edge", "short": "turn over on the short edge"}.get(sheet.spec.duplex)
    marks = tuple((m.x1, m.y1, m.x2, m.y2) for m in sheet.marks)
    pages = []
    for number in range(total):
        chunk = copies[number * sheet.per_page:(number + 1) * sheet.per_page]
        note = sheet.front_note
        pages.append(SheetPage(
            sheet.width, sheet.height, tuple(Stamp(front, c.x, c.y, clip=clip) for c, clip, (front, _)
                                             in zip(sheet.fronts, sheet.clips(len(chunk)), chunk)),
            marks, Note(note.x, note.y, note.height, f"Fronts {number + 1}/{total}", PRINT_NOTE,
                        note.width, note.rotated)))
        if sheet.backs:
            note = sheet.back_note
            pages.append(SheetPage(
                sheet.width, sheet.height,
                tuple(Stamp(back, c.x, c.y, c.rotated, clip) for c, clip, (_, back)
                      in zip(sheet.backs, sheet.clips(len(chunk), backs=True), chunk)), (),
                Note(note.x, note.y, note.height, f"Backs {number + 1}/{total} ({flip})",
                     PRINT_NOTE.replace(" Cut on the crop marks.", ""), note.width, note.rotated)))
    return pages
