"""Print-and-play PDFs checked as a printer would see them: page sizes and counts, where every card lands
(read from the PDF with pypdf), and rasterised pixels for bleed, crop marks and backs behind fronts."""

from __future__ import annotations

import io
import re

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from cardtool.deck.loader import load_deck
from cardtool.errors import RenderError
from cardtool.render.cards import DeckPrint
from cardtool.render.impose import PT_PER_MM
from cardtool.render.sheets import CARD_SIZES, PAPERS, SheetSpec, layout
from tests.conftest import DECKS

DPI = 100
THREE = "spring-frog-per-pink,autumn-snail-3,summer-fish-per-fish"  # pink, orange and yellow Seasons


def _season_colours() -> dict[str, tuple[int, int, int]]:
    """Each THREE card's Season colour, read from the deck (the palette may change)."""
    deck = load_deck(DECKS / "symbiosis")
    seasons = {season.id: season.colour.lstrip("#") for season in deck.seasons}
    return {card.id: tuple(int(seasons[card.season][i:i + 2], 16) for i in (0, 2, 4))
            for card in deck.cards if card.id in THREE.split(",")}


COLOURS = _season_colours()
SYMBIOSIS_BACK = (0x1d, 0x4f, 0x63)
STAMP = re.compile(rb"q (?:[-\d. ]+ re W n )?(-?1) 0 0 (-?1) (-?[\d.]+) (-?[\d.]+) cm /Card(\d+) Do Q")


@pytest.fixture(scope="module")
def symbiosis():
    return load_deck(DECKS / "symbiosis")


def sheets(deck, only=None, **spec):
    spec = SheetSpec(**spec)
    sheet, pdf = DeckPrint(deck, spec.card, spec.bleed, only).sheets(spec)
    return sheet, pdf


def stamps(pdf: bytes, page_number: int) -> list[tuple[int, float, float, float, float, bool]]:
    """Cards on a page as (singles page, left, top, width, height in mm, rotated)."""
    page = PdfReader(io.BytesIO(pdf)).pages[page_number]
    height = float(page.mediabox.height)
    xobjects = page["/Resources"]["/XObject"]
    found = []
    for a, _, e, f, index in STAMP.findall(page.get_contents().get_data()):
        llx, lly, urx, ury = (float(v) for v in xobjects[f"/Card{int(index)}"].get_object()["/BBox"])
        e, f, rotated = float(e), float(f), a == b"-1"
        left, bottom = (e - urx, f - ury) if rotated else (e + llx, f + lly)
        w, h = urx - llx, ury - lly
        found.append((int(index), left / PT_PER_MM, (height - bottom - h) / PT_PER_MM, w / PT_PER_MM,
                      h / PT_PER_MM, rotated))
    return found


def pixels(pdf: bytes, page_number: int):
    document = pdfium.PdfDocument(pdf)
    return document[page_number].render(scale=DPI / 72).to_pil().convert("RGB")


def at(image, x_mm: float, y_mm: float):
    return image.getpixel((int(x_mm / 25.4 * DPI), int(y_mm / 25.4 * DPI)))


def near(colour, expected, tolerance=12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, expected))


def test_full_ecologies_pdf_has_a_backs_page_after_each_fronts_page():
    deck = load_deck(DECKS / "ecologies-bizarre-biomes")
    sheet, pdf = sheets(deck)
    reader = PdfReader(io.BytesIO(pdf))
    fronts = -(-deck.size // sheet.per_page)
    assert len(reader.pages) == 2 * fronts == 24  # 108 cards 9-up with shared cuts: 12 sheets
    for page in reader.pages:  # A4 portrait, in points
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((595.28, 841.89), abs=0.1)
    placed = [len(stamps(pdf, n)) for n in range(len(reader.pages))]
    assert sum(placed[0::2]) == sum(placed[1::2]) == deck.size
    assert "Print at 100% scale" in reader.pages[0].extract_text()
    # every face brings its own font subsets; the sheets carry each font once (a second program only
    # where two faces' subsets disagree), not once a face: 1.5 MB before, about 0.35 MB now
    programs = font_programs(pdf)
    assert len(programs) <= 2 * len({name.split("+")[-1] for name in programs.values()}) < 10
    assert len(pdf) < 600_000


def font_programs(pdf: bytes) -> dict[tuple, str]:
    """The embedded font programs a PDF's pages and forms use: (object id) -> font name."""
    import pikepdf

    found = {}
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for page in document.pages:
            for xobject in page.Resources.XObject.values():
                for font in xobject.Resources.get("/Font", {}).values():
                    if "/DescendantFonts" in font:
                        program = font.DescendantFonts[0].FontDescriptor.FontFile2
                        found[program.objgen] = str(font.BaseFont)
    return found


def test_the_subsets_of_one_font_merge_into_one_program_with_every_glyph_of_each(symbiosis):
    from fontTools.ttLib import TTFont

    import pikepdf
    from cardtool.render.font_merge import TrueTypeSubset, Union

    deck_print = DeckPrint(symbiosis, CARD_SIZES["poker"], 3.0, THREE)
    deck_print.fitted_faces(backs=False)
    subsets = []
    for pdf in deck_print.face_pdfs:
        with pikepdf.open(io.BytesIO(pdf)) as document:
            fonts = document.pages[0].Resources.Font
            name = next(n for n in sorted(fonts.keys()) if str(fonts[n].BaseFont).endswith("+DejaVu-Sans"))
            subsets.append(fonts[name].DescendantFonts[0].FontDescriptor.FontFile2.read_bytes())
    parsed = [TrueTypeSubset.of(data) for data in subsets]
    assert len({frozenset(p.glyphs) for p in parsed}) >= 2  # the faces use different letters
    union, backwards = Union(), Union()
    for subset in parsed:
        assert union.agrees(subset)
        union.add(subset, frozenset())
    for subset in reversed(parsed):
        backwards.add(subset, frozenset())
    merged = union.font()
    assert merged == backwards.font()  # the same font whatever the faces' order
    font = TTFont(io.BytesIO(merged))
    order = font.getGlyphOrder()
    for data, subset in zip(subsets, parsed):
        original = TTFont(io.BytesIO(data))
        for gid in subset.glyphs:  # each glyph drawn as the face's own subset draws it
            mine, theirs = font["glyf"][order[gid]], original["glyf"][original.getGlyphOrder()[gid]]
            assert mine.getCoordinates(font["glyf"])[0] == theirs.getCoordinates(original["glyf"])[0]
    assert len(union.glyphs) > max(len(p.glyphs) for p in parsed)


def test_letter_paper_and_no_duplex(symbiosis):
    sheet, pdf = sheets(symbiosis, paper=PAPERS["letter"], duplex="none")
    reader = PdfReader(io.BytesIO(pdf))
    assert sheet.per_page == 9 and len(reader.pages) == -(-symbiosis.size // 9) == 4  # shared cuts, 9-up
    assert float(reader.pages[0].mediabox.width) == pytest.approx(215.9 * PT_PER_MM, abs=0.1)  # portrait
    separate, pdf = sheets(symbiosis, paper=PAPERS["letter"], duplex="none", cuts="separate")
    assert separate.per_page == 6
    assert float(PdfReader(io.BytesIO(pdf)).pages[0].mediabox.width) == pytest.approx(279.4 * PT_PER_MM, abs=0.1)


@pytest.mark.parametrize("paper, bleed, duplex", [("a4", 3.0, "long"), ("a4", 3.0, "short"), ("a4", 0.0, "long"),
                                                  ("a4", 0.0, "short")])
def test_cards_land_where_the_layout_says_and_backs_behind_fronts(symbiosis, paper, bleed, duplex):
    sheet, pdf = sheets(symbiosis, THREE, paper=PAPERS[paper], bleed=bleed, duplex=duplex)
    fronts, backs = stamps(pdf, 0), stamps(pdf, 1)
    assert len(fronts) == len(backs) == 3
    for (_, x, y, w, h, rotated), cell in zip(fronts, sheet.fronts):
        assert (x, y, w, h) == pytest.approx((cell.x, cell.y, cell.width, cell.height), abs=0.01)
        assert not rotated
    for (_, x, y, w, h, rotated), front in zip(backs, fronts):
        if sheet.mirror_axis == "vertical":
            assert x == pytest.approx(sheet.width - front[1] - front[3], abs=0.01) and y == pytest.approx(front[2])
        else:
            assert y == pytest.approx(sheet.height - front[2] - front[4], abs=0.01) and x == pytest.approx(front[1])
        assert rotated == (sheet.mirror_axis == "horizontal")


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_pixels_bleed_marks_and_backs(symbiosis, duplex):
    sheet, pdf = sheets(symbiosis, THREE, duplex=duplex, cuts="separate")
    front, back = pixels(pdf, 0), pixels(pdf, 1)
    bleed = sheet.spec.bleed
    for card_id, cell, back_cell in zip(THREE.split(","), sheet.fronts, sheet.backs):
        # the Season's colour fills the bleed, outside the cut line, on every side
        for x, y in ((cell.x + bleed / 2, cell.y + cell.height / 2), (cell.x + cell.width / 2, cell.y + bleed / 2),
                     (cell.x + cell.width - bleed / 2, cell.y + cell.height / 2)):
            assert near(at(front, x, y), COLOURS[card_id]), (card_id, x, y)
        # just outside the bleed the paper is white
        assert near(at(front, cell.x + cell.width / 2, cell.y - 0.4), (255, 255, 255))
        # the back's colour fills the mirrored cell, edge to edge with its bleed
        for x, y in ((back_cell.x + 0.7, back_cell.y + back_cell.height / 2),
                     (back_cell.x + back_cell.width - 0.7, back_cell.y + back_cell.height / 2)):
            assert near(at(back, x, y), SYMBIOSIS_BACK, 25), (card_id, x, y)
    empty_front, empty_back = sheet.fronts[3], sheet.backs[3]  # only three cards: the fourth place is blank
    assert near(at(front, empty_front.x + 10, empty_front.y + 10), (255, 255, 255))
    assert near(at(back, empty_back.x + 10, empty_back.y + 10), (255, 255, 255))
    for mark in sheet.marks[:8]:  # crop marks are drawn, in the margin
        mid_x, mid_y = (mark.x1 + mark.x2) / 2, (mark.y1 + mark.y2) / 2
        assert sum(at(front, mid_x, mid_y)) < 3 * 200, mark  # a 0.25 mm line: a grey pixel at 100 dpi


def _edges(image, y_mm: float, colour, tolerance=25) -> tuple[float, float]:
    """Left and right edges (mm) of the run of `colour` along a row of pixels."""
    y = int(y_mm / 25.4 * DPI)
    xs = [x for x in range(image.width) if near(image.getpixel((x, y)), colour, tolerance)]
    return xs[0] / DPI * 25.4, (xs[-1] + 1) / DPI * 25.4


def test_back_offset_moves_the_printed_backs(symbiosis):
    only = "spring-frog-per-pink"
    sheet, plain = sheets(symbiosis, only, duplex="short", cuts="separate")  # landscape A4, short edge: mirrored
    _, moved = sheets(symbiosis, only, duplex="short", back_offset=(2.0, 0.0), cuts="separate")  # left-right
    cell = sheet.backs[0]
    y = cell.y + cell.height / 2
    left, right = _edges(pixels(plain, 1), y, SYMBIOSIS_BACK)
    left2, right2 = _edges(pixels(moved, 1), y, SYMBIOSIS_BACK)
    assert (left2 - left, right2 - right) == pytest.approx((2.0, 2.0), abs=0.3)
    front_left, front_right = _edges(pixels(plain, 0), y, COLOURS[only])
    assert left == pytest.approx(sheet.width - front_right, abs=0.3)  # mirrored, behind its front
    assert right == pytest.approx(sheet.width - front_left, abs=0.3)


def test_single_card_pages_have_trim_and_bleed_boxes(symbiosis):
    faces, pdf = DeckPrint(symbiosis, CARD_SIZES["poker"], 3.175, THREE).singles()
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 4  # three fronts and the shared back
    for page in reader.pages:
        trim, media = page.trimbox, page.mediabox
        assert (float(trim.width), float(trim.height)) == pytest.approx((180, 252), abs=0.05)  # 2.5 x 3.5 in
        assert (float(media.width), float(media.height)) == pytest.approx((198, 270), abs=0.05)  # 1/8 in bleed
        assert float(page.bleedbox.width) == pytest.approx(198, abs=0.05)


def test_card_sizes_scale_the_cards(symbiosis):
    with pytest.raises(RenderError, match="below the 6 pt floor"):  # a mini card's text is too small to read
        sheets(symbiosis, THREE, card=CARD_SIZES["mini"], duplex="none")
    for name in ("bridge", "tarot"):
        size = CARD_SIZES[name]
        sheet, pdf = sheets(symbiosis, THREE, card=size, duplex="none")
        (_, _, _, w, h, _), *_ = stamps(pdf, 0)
        assert (w, h) == pytest.approx((size.width + 6, size.height + 6), abs=0.01)
        assert layout(sheet.spec).per_page == sheet.per_page


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pixels_of_shared_cuts_bleed_outside_the_block_and_meet_at_the_cut(symbiosis, paper):
    sheet, pdf = sheets(symbiosis, THREE, paper=PAPERS[paper], duplex="none")
    assert sheet.cuts == "shared"
    front = pixels(pdf, 0)
    first, second = sheet.fronts[0], sheet.fronts[1]
    colour0, colour1 = COLOURS["spring-frog-per-pink"], COLOURS["autumn-snail-3"]
    y = first.y + first.height / 2
    assert near(at(front, first.x + 1.0, y), colour0)  # the outer edge keeps its bleed
    cut = first.trim[2]
    assert cut == pytest.approx(second.trim[0])
    assert near(at(front, cut - 0.6, y), colour0) and near(at(front, cut + 0.6, y), colour1)  # one cut between
    assert near(at(front, first.x + first.width / 2, first.y + 0.8), colour0)  # top bleed, outside the block
    below = first.trim[3] + first.bleed / 2  # nothing is printed below this first row: it keeps its bleed
    assert near(at(front, first.x + first.width / 2, below), colour0)
    vertical = [m for m in sheet.marks if m.x1 == m.x2 and max(m.y1, m.y2) <= first.trim[1]]
    assert vertical  # marks at the top of every vertical cut, in the margin or (Letter) in the outer bleed
    for mark in vertical:
        assert sum(at(front, mark.x1, (mark.y1 + mark.y2) / 2)) < 3 * 200, mark


def test_a_face_whose_font_is_not_truetype_keeps_its_own_font_on_the_sheet(symbiosis):
    import pikepdf

    from cardtool.render.cards import sheet_pages
    from cardtool.render.impose import impose

    spec = SheetSpec(duplex="none")
    deck_print = DeckPrint(symbiosis, spec.card, spec.bleed, THREE)
    deck_print.fitted_faces(backs=False)
    damaged = []
    for number, pdf in enumerate(deck_print.face_pdfs):
        with pikepdf.open(io.BytesIO(pdf)) as document:
            if number == 0:  # one face's fonts are not TrueType programs: left as they are, not merged
                for font in document.pages[0].Resources.Font.values():
                    font.DescendantFonts[0].FontDescriptor.FontFile2.write(b"not a font")
            out = io.BytesIO()
            document.save(out)
            damaged.append(out.getvalue())
    sheet = layout(spec)
    pdf = impose(damaged, sheet_pages(sheet, [(0, -1), (1, -1), (2, -1)]), "test")
    assert len(stamps(pdf, 0)) == 3
    with pikepdf.open(io.BytesIO(pdf)) as document:
        forms = document.pages[0].Resources.XObject
        kept = {str(font.BaseFont) for font in forms["/Card0"].Resources.Font.values()
                if font.DescendantFonts[0].FontDescriptor.FontFile2.read_bytes() == b"not a font"}
        assert kept and len(kept) == len(forms["/Card0"].Resources.Font)  # the first face's, as it was
        merged = [font.DescendantFonts[0].FontDescriptor.FontFile2.objgen for name in ("/Card1", "/Card2")
                  for font in forms[name].Resources.Font.values() if str(font.BaseFont).endswith("+DejaVu-Sans")]
        assert len(merged) == 2 and merged[0] == merged[1]  # the other two share one program


def test_font_subsetting_arrays_are_made_without_a_c_type_per_length():
    """WeasyPrint's font subsetting gets hb_codepoint_t[N] arrays as hb_codepoint_t[] of the same items
    (render/libraries.py), so cffi parses one array type, not one per length."""
    from cardtool.render.libraries import _OpenArrays, import_weasyprint

    import_weasyprint()
    import weasyprint.pdf.fonts as fonts

    assert isinstance(fonts.ffi, _OpenArrays)
    ffi = fonts.ffi._ffi
    for items in ([7], [1, 5, 9], list(range(300))):
        made = fonts.ffi.new(f"hb_codepoint_t[{len(items)}]", items)
        assert ffi.typeof(made) is ffi.typeof("hb_codepoint_t[]")
        assert len(made) == len(items) and list(made) == items
    assert ffi.typeof(fonts.ffi.new("char[4]")) is ffi.typeof("char[4]")  # no items: cffi's own
    assert fonts.ffi.NULL == ffi.NULL


def test_font_tools_subsetter_and_instancer_load_only_when_weasyprint_uses_them():
    """While WeasyPrint is imported (render/libraries.py), its imports of fontTools' subsetter and
    instancer get stand-ins and load nothing; a stand-in imports the real module when a name is read."""
    import subprocess
    import sys

    from cardtool.render.libraries import _Deferred

    code = """
import sys
from cardtool.render.libraries import SUBSETTER, INSTANCER, _deferred_font_tools, _has_harfbuzz_subset
with _deferred_font_tools():
    from fontTools import subset  # as weasyprint.pdf.fonts imports them
    from fontTools.varLib.instancer import instantiateVariableFont
assert callable(instantiateVariableFont)
if _has_harfbuzz_subset():
    assert "fontTools.varLib" not in sys.modules and "fontTools.ttLib" not in sys.modules, sorted(sys.modules)
    assert SUBSETTER not in sys.modules and INSTANCER not in sys.modules and type(subset) is not type(sys)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    real = sys.modules.pop("colorsys", None)
    stand_in = sys.modules["colorsys"] = _Deferred("colorsys")
    try:
        assert stand_in.rgb_to_hsv(1.0, 0.0, 0.0) == (0.0, 1.0, 1.0)  # read: the real module is imported
        import colorsys
        assert colorsys is not stand_in and sys.modules["colorsys"] is colorsys
    finally:
        if real is not None:
            sys.modules["colorsys"] = real


def test_pages_without_margin_boxes_skip_them_and_the_pdf_is_the_same():
    """WeasyPrint tries no margin box on a page that has none to draw (render/margins.py): the PDF is the
    same byte for byte; a page whose @page rule gives a margin box content still draws it."""
    from cardtool.render.libraries import import_weasyprint
    from cardtool.render.reproducible import weasyprint_pdf

    import_weasyprint()
    import weasyprint.layout as layout
    from weasyprint import HTML
    from weasyprint.layout import page as page_layout

    quick = layout.make_margin_boxes
    assert getattr(quick, "_cardtool", False) and quick is not page_layout.make_margin_boxes
    card = "<style>@page { size: 60mm 80mm; margin: 5mm }</style><p style='font-size: 9pt'>Frog eats fly.</p>"
    numbered = card.replace("margin: 5mm", "margin: 5mm; @bottom-center { content: 'page ' counter(page) }")
    pdfs = {}
    for name, html in (("card", card), ("numbered", numbered)):
        for way, make in (("quick", quick), ("weasyprint", page_layout.make_margin_boxes)):
            layout.make_margin_boxes = make
            try:
                document = HTML(string=html).render()
            finally:
                layout.make_margin_boxes = quick
            pdfs[name, way] = weasyprint_pdf(document), len(document.pages[0]._page_box.children)
    assert pdfs["card", "quick"] == pdfs["card", "weasyprint"] and pdfs["card", "quick"][1] == 1
    assert pdfs["numbered", "quick"] == pdfs["numbered", "weasyprint"] and pdfs["numbered", "quick"][1] == 2
