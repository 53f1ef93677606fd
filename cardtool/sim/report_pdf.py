"""A report's PDF laid out in parts, on both cores: the page is cut where its template marks a part
(before each printed card table), each part is its own WeasyPrint document, laid out in forked
processes (render/parallel.py), and the parts' pages are put together with pikepdf.

WeasyPrint's layout is pure Python and the report's page costs about 1.8 s of it in one process, most
of the time of writing a report; its card table alone is about 40%. A part starts a new page, so a
report always breaks there (one core or two: the PDF is the same, byte for byte). What a single
document would have made across parts is made again here: the page numbers ("3 / 8" at the foot of
every page, which need the total) are laid out by WeasyPrint in a document of empty pages once the
total is known and drawn over each page, the bookmarks are nested by heading level as WeasyPrint
nests them, and the fonts the parts each embed are shared (render/shared_fonts.py).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from io import BytesIO

#: Where the printed page may be cut into parts: templates put it only at the top level of the body.
MARKER = "<!-- cardtool: pdf part -->"
#: Added to each part's stylesheet: its pages carry no number (the numbers are drawn over them later).
NO_NUMBERS = "@page { @bottom-right { content: none; } }\n"
PT_PER_PX = 0.75  # WeasyPrint's PDF points per CSS pixel


@contextmanager
def paused_collector():
    """The cyclic garbage collector paused: a layout keeps nearly all it makes until it is done, and
    each collection would scan that growing heap again (about a tenth of a report's layout)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def split(page: str) -> tuple[str, list[str], str]:
    """(everything up to and including <body>, the body's parts, the rest) of a printed page."""
    head, _, rest = page.partition("<body>")
    body, _, tail = rest.rpartition("</body>")
    if not rest or not body:
        return page, [], ""
    return head + "<body>", [part for part in body.split(MARKER) if part.strip()], "</body>" + tail


def laid_out(html: str, fetcher) -> tuple[bytes, list[tuple[int, str, int, float, float]]]:
    """One part as PDF bytes, and its bookmarks: (level, label, page, left, top) in PDF points."""
    from weasyprint import HTML

    from cardtool.render.reproducible import weasyprint_pdf

    with paused_collector():
        document = HTML(string=html, url_fetcher=fetcher).render()
        marks = [(level, label, number, x * PT_PER_PX, (page.height - y) * PT_PER_PX)
                 for number, page in enumerate(document.pages)
                 for level, label, (x, y), _ in page.bookmarks]
        return weasyprint_pdf(document), marks


def report_pdf(page: str, fetcher_for) -> bytes:
    """The printed page as one PDF; fetcher_for() gives each document its url_fetcher, which must have
    refused nothing (cardtool.render.fetcher.check)."""
    from cardtool.render.fetcher import check
    from cardtool.render.parallel import join, run_sliced

    head, parts, tail = split(page)
    if len(parts) < 2:
        fetcher = fetcher_for()
        pdf = laid_out(page, fetcher)[0]
        check(fetcher)
        return pdf
    unnumbered = head.replace("</style>", NO_NUMBERS + "</style>", 1)

    def lay_out(start: int, end: int) -> list:
        made = []
        for part in parts[start:end]:
            fetcher = fetcher_for()
            made.append(laid_out(unnumbered + part + tail, fetcher))
            check(fetcher)
        return made

    made = join(run_sliced(lay_out, len(parts)))
    return _assemble(made, _numbers(head, tail, made, fetcher_for))


def _numbers(head: str, tail: str, made: list, fetcher_for) -> bytes:
    """A PDF of as many empty pages as the parts have, each with the page's own number and the total, as
    the page's @page rule draws them."""
    import pikepdf

    total = sum(len(pikepdf.open(BytesIO(pdf)).pages) for pdf, _ in made)
    empty = '<div style="break-before: page"></div>'.join("<div></div>" for _ in range(total))
    fetcher = fetcher_for()
    numbers = laid_out(head + empty + tail, fetcher)[0]
    return numbers


def _assemble(made: list, numbers: bytes) -> bytes:
    """The parts' pages in order, each with its page number drawn over it, their fonts shared, the
    bookmarks of every part nested by level; dates and /ID fixed as WeasyPrint's own PDFs have them."""
    import pikepdf

    from cardtool.render.shared_fonts import share_fonts

    sources = [pikepdf.open(BytesIO(pdf)) for pdf, _ in made]
    out = pikepdf.new()
    marks = []
    for source, (_, part_marks) in zip(sources, made):
        marks += [(level, label, len(out.pages) + number, left, top) for level, label, number, left, top in part_marks]
        out.pages.extend(source.pages)
    with pikepdf.open(BytesIO(numbers)) as numbered:
        for index, (page, number) in enumerate(zip(out.pages, numbered.pages)):
            _draw_over(out, page, number, f"/CardtoolPageNumber{index + 1}")
    share_fonts(out, [page.obj for page in out.pages])
    first = sources[0]
    for key, value in first.docinfo.items():
        out.docinfo[key] = value
    if "/Lang" in first.Root:
        out.Root.Lang = first.Root.Lang
    _outline(out, marks)
    buffer = BytesIO()
    out.save(buffer, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    for source in sources:
        source.close()
    return buffer.getvalue()


def _draw_over(pdf, page, other, name: str) -> None:
    """Draw another PDF's page, of the same size, over page, as a form XObject of the given name (pikepdf's
    add_overlay names it at random, and the PDF must not change from one run to the next; a part's pages
    share one resource dictionary, so each page's name is its own)."""
    import pikepdf

    name = page.add_resource(pdf.copy_foreign(other.as_form_xobject()), pikepdf.Name.XObject,
                             name=pikepdf.Name(name))
    page.contents_add(b"q\n", prepend=True)
    page.contents_add(b"Q\nq " + bytes(name) + b" Do Q\n")


def _outline(pdf, marks: list[tuple[int, str, int, float, float]]) -> None:
    """Bookmarks from (level, label, page, left, top): each under the last before it of a lower level."""
    import pikepdf

    with pdf.open_outline() as outline:
        open_items: list[tuple[int, list]] = [(0, outline.root)]
        for level, label, page, left, top in marks:
            while open_items[-1][0] >= level:
                open_items.pop()
            item = pikepdf.OutlineItem(label, page, pikepdf.PageLocation.XYZ, left=left, top=top, zoom=0)
            open_items[-1][1].append(item)
            open_items.append((level, item.children))
