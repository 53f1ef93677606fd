"""A report's PDF made in parts (cardtool/sim/report_pdf.py) is the one PDF a reader expects: every page
numbered "n / total" in order, bookmarks nested by heading as WeasyPrint nests them, the same bytes on
one core or two, and a part that tries to load something from outside refused like the whole page."""

from __future__ import annotations

from io import BytesIO

import pikepdf
import pytest
from pypdf import PdfReader

from cardtool.errors import RenderError
from cardtool.render.fetcher import deck_fetcher
from cardtool.sim.report_pdf import MARKER, laid_out, report_pdf, split

HEAD = ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Test report</title><style>\n'
        '@page { size: A6; margin: 10mm; @bottom-right { content: counter(page) " / " counter(pages); '
        'font-size: 8pt; } }\nbody { font-family: "DejaVu Sans", sans-serif; font-size: 9pt; }\n</style></head><body>')


def _page(*parts: str) -> str:
    return HEAD + MARKER.join(parts) + "</body></html>"


def _fetcher():
    return deck_fetcher(what="the test report")


def _rows(count: int) -> str:
    return "<table>" + "".join(f"<tr><td>row {i}</td><td>{i * 7}</td></tr>" for i in range(count)) + "</table>"


PAGE = _page("<h1>Report</h1><h2>First</h2><p>one</p>" + _rows(30) + "<h3>Detail</h3><p>two</p>",
             "<h2>Cards</h2>" + _rows(40), "<h2>Configuration</h2><p>three</p>")


def _outline(pdf: bytes) -> list[tuple[int, str, int]]:
    """(depth, title, page index) of every bookmark, in order."""
    found = []
    with pikepdf.open(BytesIO(pdf)) as document:
        pages = {page.objgen: index for index, page in enumerate(document.pages)}
        with document.open_outline() as outline:
            def walk(items, depth):
                for item in items:
                    found.append((depth, item.title, pages[item.destination[0].objgen]))
                    walk(item.children, depth + 1)
            walk(outline.root, 0)
    return found


def test_the_page_is_cut_once_at_the_marker_that_shares_the_work_best():
    head, parts, tail = split(PAGE)
    assert head.endswith("<body>") and tail == "</body></html>" and len(parts) == 2
    assert "".join(parts) == PAGE[len(head):-len(tail)].replace(MARKER, "")
    assert parts[1].startswith("<h2>Cards</h2>")  # 30 rows and more before, 40 rows and a paragraph after
    small, large = "<p>x</p>", _rows(40)
    assert split(_page(small, small, large))[1] == [small + small, large]
    assert split(_page(large, small, small))[1] == [large, small + small]
    assert split(HEAD + "<p>x</p></body></html>")[1] == ["<p>x</p>"]
    assert split(_page("", "<p>x</p>"))[1] == ["<p>x</p>"]  # a marker with nothing before it cuts nothing


def test_every_page_of_a_report_in_parts_is_numbered_in_order_with_the_total():
    pdf = report_pdf(PAGE, _fetcher)
    reader = PdfReader(BytesIO(pdf))
    total = len(reader.pages)
    assert total >= 4  # each part starts a page; the tables run over several
    for number, page in enumerate(reader.pages, 1):
        assert page.extract_text().split()[-3:] == [str(number), "/", str(total)], number
    assert reader.metadata.title == "Test report"


def test_bookmarks_nest_as_in_one_document_and_point_at_each_heading_page():
    head, (first, second), tail = split(PAGE)
    parts = _outline(report_pdf(PAGE, _fetcher))
    whole = _outline(laid_out(head + first + '<div style="break-before: page"></div>' + second + tail, _fetcher())[0])
    assert parts == whole  # one document broken at the same place: the same tree, the same pages
    assert [(depth, title) for depth, title, _ in parts] == [(0, "Report"), (1, "First"), (2, "Detail"),
                                                              (1, "Cards"), (1, "Configuration")]


def test_the_pdf_is_the_same_on_one_core_or_two(monkeypatch):
    monkeypatch.setenv("CARDTOOL_WORKERS", "1")
    one = report_pdf(PAGE, _fetcher)
    monkeypatch.setenv("CARDTOOL_WORKERS", "2")
    assert report_pdf(PAGE, _fetcher) == one == report_pdf(PAGE, _fetcher)


def test_a_page_without_markers_is_one_document_as_before():
    page = _page("<h1>Only</h1><p>one part</p>")
    assert report_pdf(page, _fetcher) == laid_out(page, _fetcher())[0]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_part_loading_from_outside_is_refused(monkeypatch, workers):
    monkeypatch.setenv("CARDTOOL_WORKERS", workers)
    page = _page("<h1>Report</h1>", "<p>middle</p>", '<img src="https://example.org/x.png">')  # the last: a worker's
    with pytest.raises(RenderError, match="refused to load https://example.org/x.png"):
        report_pdf(page, _fetcher)
