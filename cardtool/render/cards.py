"""A deck's cards as PDFs: every different face laid out once, in ONE WeasyPrint document of one card a
page (trim plus bleed, with TrimBox and BleedBox: the print-on-demand PDF and the source of the images),
then imposed onto print-and-play sheets with crop marks and backs (render/impose.py). A face's page holds its
own text; the parts many faces share are laid out once and stamped under it (render/layers.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from markupsafe import Markup

from cardtool.deck.model import Card, Deck
from cardtool.errors import UnknownCardError, UsageError
from cardtool.render.context import Face, Frame, deck_roots
from cardtool.render.environment import environment, render
from cardtool.render.face_cache import cached_face, keep_face
from cardtool.render.cache import code_fingerprint, key_of, named_files_digest
from cardtool.render.cache import current as current_cache
from cardtool.render.fitting import LaidOut, Overflow, base_sizes, fit, overflows, render_html, with_sizes, write_pages
from cardtool.render.impose import Note, SheetPage, Stamp, impose, merge
from cardtool.render.layers import Forms, Layers, Piece, stamp
from cardtool.render.lean import lean_html_class
from cardtool.render.libraries import import_weasyprint
from cardtool.render.parallel import MAX_WORKERS, Exchange, each_apart, few_collections, join, run_sliced, slices
from cardtool.render.reproducible import epoch
from cardtool.render.sheets import PRINT_NOTE, CardSize, Layout, SheetSpec, layout
from cardtool.suggest import did_you_mean


PARALLEL_FROM = 24  # faces: fewer are laid out in one process (a fork costs more than it saves)
LAYOUT_PARTS = MAX_WORKERS  # documents a long run of faces is laid out in, on any machine
LEAN_FROM = 8  # faces in a document from which it is styled the lean way (render/lean.py: set-up ~0.1 s)


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


def card_html(face: Face, frame: Frame, layers: Layers | None = None) -> Markup:
    """A face's HTML: whole, or with `layers`, without the pieces it hands over (render/layers.py)."""
    return Markup(render(face.template, face=face, card=face.card, frame=frame, layers=layers))


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
        self.batches: list[tuple[int, int]] = []  # per lay_out call: faces taken from the build's cache, laid out
        self.face_pdfs: list[bytes] = []  # by singles(): each face's own one-page PDF, in faces order
        self._hits: dict[str, tuple[bytes, list[Overflow]] | None] = {}  # cache lookups made before lay_out
        self._htmls: dict[tuple, Markup] = {}
        self._pieces: dict[str, tuple[Piece, ...]] = {}  # a face's HTML -> the pieces stamped under it
        self._keys: dict[str, str] = {}
        self.forms = Forms()  # the pieces laid out so far, by id
        self._later = False  # lay faces out without their pieces, to be stamped once every piece is made
        self._stamped: dict[bytes, bytes] = {}

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

    def single_html(self, faces: list[Face], htmls: list[Markup] | None = None) -> str:
        frame = self.frame
        cards = tuple(htmls) if htmls is not None else tuple(card_html(f, frame) for f in faces)
        context = SingleContext(self.deck.manifest.name, frame.width, frame.height, frame.bleed, cards, self.css)
        return render("single.html.j2", doc=context)

    def _single_document(self, faces, htmls: list[Markup] | None = None):
        faces = list(faces)
        return render_html(self.single_html(faces, htmls), self.base_url, self.roots,
                           f"deck {self.deck.manifest.id}", lean=len(faces) >= LEAN_FROM)

    def _html(self, face: Face) -> Markup:
        """A face's own HTML, its pieces handed over (card_html with layers), made once however often
        lay_out and the cache ask for it."""
        memo = (face.key, tuple(sorted(face.sizes.items())))
        if memo not in self._htmls:
            layers = Layers()
            html = card_html(face, self.frame, layers)
            self._htmls[memo] = html
            self._pieces[html] = tuple(layers.pieces)
        return self._htmls[memo]

    def face_key(self, html: str) -> str:
        """What a face's page is made from, as one digest: its HTML and its pieces', the stylesheet, the
        page's size and title, and the content of every file they name (art, icons). Also a piece's id."""
        if html in self._keys:
            return self._keys[html]
        frame = self.frame
        shown = html + "".join(piece.key for piece in self._pieces.get(html, ()))
        self._keys[html] = key_of("face", code_fingerprint(), str(epoch()), self.deck.manifest.name, repr(frame),
                                  self.base_url, str(self.css), shown, named_files_digest(shown, str(self.css)))
        return self._keys[html]

    def _piece_ids(self, html: str) -> list[str]:
        """The ids of the pieces stamped under a face (face_key of each piece: what it is made from)."""
        return [self.face_key(piece.key) for piece in self._pieces.get(html, ())]

    def _missing_pieces(self, htmls: list[Markup]) -> dict[str, Markup]:
        """The pieces of these faces not laid out yet, each different one once: id -> HTML."""
        missing: dict[str, Markup] = {}
        for html in htmls:
            for piece, ident in zip(self._pieces.get(html, ()), self._piece_ids(html)):
                if ident not in self.forms.pdfs:
                    missing.setdefault(ident, piece.html)
        return missing

    def _lay_out_pieces(self, pieces: dict[str, Markup]) -> dict[str, bytes]:
        """Pieces laid out in one document, a page each: id -> one-page PDF (also kept in forms)."""
        if not pieces:
            return {}
        made = dict(zip(pieces, write_pages(self._single_document(range(len(pieces)), list(pieces.values())))))
        self.forms.pdfs.update(made)
        return made

    def _stamp(self, pdf: bytes, pieces: list[str]) -> bytes:
        """A face's PDF with the pieces (by id) stamped under its text (each text page stamped once)."""
        if pdf not in self._stamped:
            self._stamped[pdf] = stamp(pdf, pieces, self.forms)
        return self._stamped[pdf]

    def lay_out(self, faces, entries: list | None = None) -> LaidOut:
        """Faces one a page, each page its own PDF (render/cache.py keeps them by content). Faces the
        build's cache holds are taken from it; the others, a long run cut in LAYOUT_PARTS halves, are
        laid out in ONE WeasyPrint document each; on two cores both at once, which takes about half the
        time. A face's PDF holds its own font subsets, so its bytes depend on nothing but the face.

        With `entries` (a worker fitting its part of the faces, see fitted_faces) the faces are all laid
        out here, in one document, the cache neither asked nor written: each face's cache entry (key,
        PDF, findings) is added to `entries` instead, for the process that holds the cache to keep."""
        faces = list(faces)
        htmls = [self._html(f) for f in faces]
        cache = current_cache()
        keys = [self.face_key(h) for h in htmls] if cache is not None else []
        hits = [] if entries is not None else \
            [self._hits.pop(key) if key in self._hits else cached_face(cache, key, faces[i].key, self.frame)
             for i, key in enumerate(keys)]
        found = {i: hit for i, hit in enumerate(hits) if hit is not None}
        todo = [i for i in range(len(faces)) if i not in found]
        if todo:
            import_weasyprint()  # before the workers fork, and only when a face is to be laid out
        parts = 1 if entries is not None or len(todo) < PARALLEL_FROM else LAYOUT_PARTS
        cuts = slices(len(todo), parts)
        laid = join(run_sliced(lambda first, last: [self._laid_pages([faces[todo[j]] for j in range(start, end)],
                                                                     [htmls[todo[j]] for j in range(start, end)])
                                                    for start, end in cuts[first:last]], len(cuts))) if todo else []
        made = dict(zip(todo, (page for part in laid for page in part)))
        if cache is not None:
            for i in todo:
                if entries is None:
                    keep_face(cache, keys[i], *made[i])
                else:
                    entries.append((keys[i], *made[i], self._piece_ids(htmls[i])))
        pages = [found[i] if i in found else made[i] for i in range(len(faces))]
        self.batches.append((len(found), len(todo)))
        return LaidOut([pdf for pdf, _ in pages], [(i, 0) for i in range(len(pages))],
                       [o for _, found_here in pages for o in found_here])

    def _laid_pages(self, faces: list[Face], htmls: list[Markup]) -> list[tuple[bytes, list[Overflow]]]:
        """Faces laid out in one document: each face's own PDF and what overflowed in it."""
        document = self._single_document(faces, htmls)
        found = overflows(document)
        if not self._later:
            self._lay_out_pieces(self._missing_pieces(htmls))
        return [(pdf if self._later else self._stamp(pdf, self._piece_ids(html)),
                 [o for o in found if o.key == face.key]) for face, html, pdf in zip(faces, htmls, write_pages(document))]

    def fitted_faces(self, backs: bool = True) -> list[Face]:
        """Each different face laid out and its text fitted; its own one-page PDF in face_pdfs.

        A long run of faces the build's cache does not hold is dealt in turn into LAYOUT_PARTS (each part
        a like mix of card kinds and long texts), and each part is fitted whole where it is laid out
        (render/fitting.py: its first layout and the rounds that shrink what overflows), both parts at
        once on two cores, so no shrinking round waits for the other part; the faces the cache holds are
        fitted here first. A face's PDF depends on nothing but the face, so where it was laid out changes
        no byte."""
        with few_collections():
            return self._fitted_faces(backs)

    def _fitted_faces(self, backs: bool) -> list[Face]:
        epoch()  # a malformed SOURCE_DATE_EPOCH fails here, before any layout, not in a worker
        faces = [with_sizes(f, self.frame) for f in self.faces(backs)]
        cache = current_cache()
        kept = [i for i, f in enumerate(faces) if cache is not None and self._cached(cache, f) is not None]
        fresh = sorted(set(range(len(faces))) - set(kept))
        if len(fresh) < PARALLEL_FROM:
            faces, laid = fit(faces, self.frame, self.lay_out)
            self.face_pdfs = [laid.pdfs[pdf] for pdf, _ in laid.pages]
            self._record(faces)
            return faces
        import_weasyprint()  # before the workers fork, with the lean styling's stylesheet made once for both
        lean_html_class()
        fitted, laid = fit([faces[i] for i in kept], self.frame, self.lay_out) if kept else ([], LaidOut([], [], []))
        self.batches = [(len(kept), len(fresh))]
        dealt = [fresh[part::LAYOUT_PARTS] for part in range(LAYOUT_PARTS)]  # dealt in turn: each part a like mix
        pieces = list(self._missing_pieces([self._html(faces[i]) for i in fresh]).items())
        shares = [dict(pieces[part::LAYOUT_PARTS]) for part in range(LAYOUT_PARTS)]  # and so are the pieces
        exchange = Exchange(len(dealt)) if each_apart(len(dealt)) else None  # each part in its own process
        self._later = True  # the parts lay their faces out bare and stamp them once they hold every piece
        try:
            parts = join(run_sliced(lambda first, last: [self._fit_fresh([faces[i] for i in dealt[k]], shares[k],
                                                                         exchange, k)
                                                         for k in range(first, last)], len(dealt)))
        finally:
            self._later = False
            if exchange is not None:
                exchange.close()
        for *_, made_pieces, _ in parts:
            self.forms.pdfs.update(made_pieces)
        sizes = {i: f.sizes for i, f in zip(kept, fitted)}
        made = {i: laid.pdfs[pdf] for i, (pdf, _) in zip(kept, laid.pages)}
        for group, (part_sizes, part_pdfs, entries, _, stamped) in zip(dealt, parts):
            sizes.update(zip(group, part_sizes))
            made.update((i, pdf if stamped else self._stamp(pdf, self._piece_ids(self._html(faces[i]))))
                        for i, pdf in zip(group, part_pdfs))
            if cache is not None:
                for key, pdf, found, pieces in entries:
                    keep_face(cache, key, pdf if stamped else self._stamp(pdf, pieces), found)
        faces = [replace(f, sizes=sizes[i]) for i, f in enumerate(faces)]
        self.face_pdfs = [made[i] for i in range(len(faces))]
        self._record(faces)
        return faces

    def _cached(self, cache, face: Face) -> tuple[bytes, list[Overflow]] | None:
        """The face's PDF and findings from the build's cache (remembered for lay_out), or None."""
        key = self.face_key(self._html(face))
        if key not in self._hits:
            self._hits[key] = cached_face(cache, key, face.key, self.frame)
        return self._hits[key]

    def _fit_fresh(self, faces: list[Face], pieces: dict[str, Markup], exchange: Exchange | None = None,
                   part: int = 0) -> tuple:
        """Faces fitted in this process without the cache, and some pieces laid out: the faces' sizes, their
        PDFs, the cache entries of every face laid out (key, PDF, findings, piece ids; to be stored by the
        process that holds the cache), the pieces' PDFs by id, and whether the PDFs are stamped. A piece
        holds no fitted text, so the faces of any size stamp the same pieces.

        With an `exchange` (each part in a process of its own) this part gives its pieces to the others as
        soon as they are made and, once its faces are fitted, takes theirs and stamps its own faces and
        entries here, so that stamping is shared between the processes; otherwise (or when another part
        failed) the PDFs come back bare, for the caller to stamp."""
        made_pieces: dict[str, bytes] | None = None
        try:
            made_pieces = self._lay_out_pieces(pieces)
        finally:
            if exchange is not None:
                exchange.give(part, made_pieces)  # None if laying them out failed: no part waits for them
        entries: list[tuple[str, bytes, list[Overflow], list[str]]] = []
        fitted, laid = fit(faces, self.frame, lambda some: self.lay_out(some, entries))
        pdfs = [laid.pdfs[pdf] for pdf, _ in laid.pages]
        others = exchange.take(part) if exchange is not None else {}
        stamped = exchange is not None and all(given is not None for given in others.values())
        if stamped:
            for given in others.values():
                self.forms.pdfs.update(given)
            pdfs = [self._stamp(pdf, self._piece_ids(self._html(face))) for face, pdf in zip(faces, pdfs)]
            entries = [(key, self._stamp(pdf, ids), found, ids) for key, pdf, found, ids in entries]
        return [f.sizes for f in fitted], pdfs, entries, made_pieces, stamped

    def singles(self, backs: bool = True) -> tuple[list[Face], bytes]:
        """Each different face on its own page, trim size plus bleed, text fitted: (faces, PDF)."""
        faces = self.fitted_faces(backs)
        return faces, merge(self.face_pdfs, [(i, 0) for i in range(len(faces))], self.deck.manifest.name)

    def sheets(self, spec: SheetSpec) -> tuple[Layout, bytes]:
        """The print-and-play PDF: fronts pages, each followed by its backs page unless duplex is none;
        imposed straight from the faces' own PDFs."""
        sheet = layout(spec)
        faces = self.fitted_faces(backs=spec.duplex != "none")
        index = {face.key: i for i, face in enumerate(faces)}
        count = {card.id: card.count for card in self.cards}
        copies = [(index[front.key], index.get(back.key, -1)) for front, back in self.pairs
                  for _ in range(count[front.card_id])]
        return sheet, impose(self.face_pdfs, sheet_pages(sheet, copies), self.deck.manifest.name)


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
