"""Page font subsets cut from a small source (render/font_subsets.py) are the bytes WeasyPrint makes."""

from __future__ import annotations

import pytest

from cardtool.render.libraries import import_weasyprint
from cardtool.render.reproducible import weasyprint_pdf

# Latin text, a glyph far above the first 256 ids (the arrow) and text in three faces of the font
PAGES = ["<p style='font: 9pt DejaVu Sans'>Frog eats fly. <b>Eaten by:</b> heron, <i>otter</i>.</p>",
         "<p style='font: 8pt DejaVu Sans'>Fly → frog → heron; “quoted”, 1/2 VP</p>",
         "<p style='font: bold 11pt DejaVu Sans'>Zebra mussel</p><p><i>Dreissena polymorpha</i></p>"]


@pytest.fixture()
def fonts(monkeypatch):
    """weasyprint.pdf.fonts given a fresh QuickSubsets (no sources yet), and that QuickSubsets."""
    import_weasyprint()
    import weasyprint.pdf.fonts as fonts

    from cardtool.render.font_subsets import QuickSubsets

    installed = fonts._cardtool_quick_subsets
    quick = QuickSubsets(fonts, installed.ffi, installed.harfbuzz)
    quick.subset, quick.read, quick.face_of = installed.subset, installed.read, installed.face_of  # WeasyPrint's
    monkeypatch.setattr(fonts.Font, "_harfbuzz_subset",
                        lambda font, codes, hinting: quick.subset_font(font, codes, hinting))
    monkeypatch.setattr(fonts, "get_hb_object_data", quick.object_data)
    monkeypatch.setattr(fonts, "get_pango_font_hb_face", quick.pango_font_face)
    return fonts, quick


def _pdfs(pages: list[str]) -> list[bytes]:
    from weasyprint import HTML

    return [weasyprint_pdf(HTML(string=f"<style>@page {{ size: 60mm 80mm }}</style>{page}").render())
            for page in pages]


def _weasyprints_own(fonts, quick, monkeypatch, pages: list[str]) -> list[bytes]:
    with monkeypatch.context() as plain:
        plain.setattr(fonts.Font, "_harfbuzz_subset", quick.subset)
        plain.setattr(fonts, "get_hb_object_data", quick.read)
        plain.setattr(fonts, "get_pango_font_hb_face", quick.face_of)
        return _pdfs(pages)


def test_subsets_cut_from_small_sources_are_weasyprints_bytes(fonts, monkeypatch):
    fonts, quick = fonts
    quick_pdfs = _pdfs(PAGES)
    assert quick.sources and all(s.face is not None and s.checked for s in quick.sources.values())
    assert {high for _, high in quick.sources} == {False, True}  # Latin pages, and the arrow's page
    assert all(max(s.glyphs) < 256 for (_, high), s in quick.sources.items() if not high)
    whole = max(len(held[1]) for held in quick.whole.values())
    assert whole > 100_000 and all(len(s.glyphs) < 300 for s in quick.sources.values())
    assert quick_pdfs == _weasyprints_own(fonts, quick, monkeypatch, PAGES)


def test_a_source_that_does_not_give_the_same_bytes_is_dropped_for_weasyprints_way(fonts, monkeypatch):
    fonts, quick = fonts
    cut = quick._cut
    monkeypatch.setattr(quick, "_cut", lambda font, glyphs: cut(font, frozenset(range(3, 40))))  # lacks glyphs
    quick_pdfs = _pdfs(PAGES[:1])
    assert quick.sources and all(s.face is None for s in quick.sources.values())
    assert quick_pdfs == _weasyprints_own(fonts, quick, monkeypatch, PAGES[:1])
