"""A report's PDF laid out in parts, on both cores: the page is cut where its template marks a part
(before a section, the one that halves the work best), each part is its own WeasyPrint document, the
second laid out by a forked helper process while this one lays out the first, and the parts' pages are
put together with pikepdf.

WeasyPrint's layout is pure Python, and the report's page cost about 1.8 s of it in one process, nearly
all the time of writing a report. The second part starts a new page, so a report
always breaks there (one core or two: the PDF is the same, byte for byte). What a single document would
have made across parts is made again: the page numbers ("3 / 8" at the foot of every page, which need
the total) are laid out by WeasyPrint in a document of empty pages once the total is known (the helper
sends its page count before it draws its pages, so this overlaps) and drawn over each page; the
bookmarks are nested by heading level as WeasyPrint nests them; the fonts the parts each embed are
shared (render/shared_fonts.py). CARDTOOL_WORKERS=1 (render/parallel.py) lays every part out here.
"""

from __future__ import annotations

from io import BytesIO

from cardtool.collector import collector_paused

#: Where the printed page may be cut in two (before a section): templates put it only at the top level of
#: the body. The page is cut at one of them, the one that shares the work best.
MARKER = "<!-- cardtool: pdf part -->"
#: This process's share of the work beyond its part, as a share of the page's: the page numbers and
#: putting the PDF together (about a tenth of one document's time).
ASSEMBLY_SHARE = 0.12
#: Added to each part's stylesheet: its pages carry no number (the numbers are drawn over them later).
NO_NUMBERS = "@page { @bottom-right { content: none; } }\n"
PT_PER_PX = 0.75  # WeasyPrint's PDF points per CSS pixel


def split(page: str) -> tuple[str, list[str], str]:
    """(everything up to and including <body>, the body cut in at most two parts, the rest) of a printed
    page; the cut is the marker at which the two parts' elements (what WeasyPrint lays out, about one
    box each) come nearest to even, the first part counting ASSEMBLY_SHARE more."""
    head, _, rest = page.partition("<body>")
    body, _, tail = rest.rpartition("</body>")
    if not rest or not body:
        return page, [], ""
    pieces = body.split(MARKER)
    cuts = [k for k in range(1, len(pieces)) if "".join(pieces[:k]).strip() and "".join(pieces[k:]).strip()]
    if not cuts:
        return head + "<body>", [body.replace(MARKER, "")], "</body>" + tail
    elements = [piece.count("<") for piece in pieces]
    extra = ASSEMBLY_SHARE * sum(elements)
    cut = min(cuts, key=lambda k: (max(sum(elements[:k]) + extra, sum(elements[k:])), k))
    return head + "<body>", ["".join(pieces[:cut]), "".join(pieces[cut:])], "</body>" + tail


def _rendered(html: str, fetcher):
    """One document laid out by WeasyPrint (not yet drawn); its warnings (and fontTools') not shown."""
    import logging

    from weasyprint import HTML

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    with collector_paused():
        return HTML(string=html, url_fetcher=fetcher).render()


def _written(document) -> tuple[bytes, list[tuple[int, str, int, float, float]]]:
    """A laid-out document as PDF bytes, and its bookmarks: (level, label, page, left, top) in PDF points."""
    from cardtool.render.reproducible import weasyprint_pdf

    marks = [(level, label, number, x * PT_PER_PX, (page.height - y) * PT_PER_PX)
             for number, page in enumerate(document.pages) for level, label, (x, y), _ in page.bookmarks]
    with collector_paused():
        return weasyprint_pdf(document), marks


def laid_out(html: str, fetcher) -> tuple[bytes, list[tuple[int, str, int, float, float]]]:
    """One document as PDF bytes, and its bookmarks."""
    return _written(_rendered(html, fetcher))


def part_documents(page: str) -> tuple[str, str, list[str]]:
    """(the page's head, its tail, its parts as documents without page numbers); one part: the page itself."""
    head, parts, tail = split(page)
    if len(parts) < 2:
        return head, tail, [page]
    unnumbered = head.replace("</style>", NO_NUMBERS + "</style>", 1)
    return head, tail, [unnumbered + part + tail for part in parts]


def report_pdf(page: str, fetcher_for) -> bytes:
    """The printed page as one PDF; fetcher_for() gives each document its url_fetcher, which must have
    refused nothing (cardtool.render.fetcher.check)."""
    from cardtool.render.fetcher import check
    from cardtool.render.parallel import workers

    head, tail, documents = part_documents(page)
    if len(documents) < 2:
        fetcher = fetcher_for()
        pdf = laid_out(page, fetcher)[0]
        check(fetcher)
        return pdf
    mine = 1 if workers() > 1 and not _daemonic() else len(documents)
    with _Helper(documents[mine:], fetcher_for) as helper:
        made = []
        for html in documents[:mine]:
            fetcher = fetcher_for()
            document = _rendered(html, fetcher)
            made.append((*_written(document), len(document.pages)))
            check(fetcher)
        total = sum(pages for _, _, pages in made) + helper.pages()  # the helper says as soon as it knows
        numbers = _numbers(head, tail, total, fetcher_for)  # while the helper draws its pages
        made += helper.results()
    return assemble(made, numbers)


def _daemonic() -> bool:
    """Whether this process is a daemon (a pool's worker), which may not start a helper of its own."""
    import multiprocessing

    return multiprocessing.current_process().daemon


class _Helper:
    """A forked process laying out the second part: it sends its page count as soon as the part is laid
    out, then its PDF (or the error that stopped it)."""

    def __init__(self, documents: list[str], fetcher_for):
        self.documents, self.fetcher_for = documents, fetcher_for
        self.process = self.connection = None

    def __enter__(self):
        if self.documents:
            import multiprocessing

            context = multiprocessing.get_context("fork")
            self.connection, theirs = context.Pipe(duplex=False)
            self.process = context.Process(target=_help, args=(self.documents, self.fetcher_for, theirs),
                                           daemon=True)
            self.process.start()
            theirs.close()
        return self

    def pages(self) -> int:
        return receive(self.connection, "pages") if self.process else 0

    def results(self) -> list:
        return receive(self.connection, "done") if self.process else []

    def __exit__(self, *exc):
        if self.process is not None:
            self.connection.close()
            if exc[0] is not None:
                self.process.terminate()
            self.process.join()


def receive(connection, expected: str):
    """The next message of a helper laying out a part: its value if it is of the kind expected; the helper's
    own error raised here if it sent one."""
    try:
        kind, value = connection.recv()
    except EOFError:
        raise RuntimeError("the process laying out part of the report's PDF stopped") from None
    if kind == "error":
        raise value
    assert kind == expected, kind
    return value


def _help(documents: list[str], fetcher_for, connection) -> None:
    """The helper's work (in the forked process)."""
    try:
        lay_out_parts(documents, fetcher_for, connection)
    finally:
        connection.close()


def lay_out_parts(documents: list[str], fetcher_for, connection) -> None:
    """Lay documents out, send ("pages", their page count), draw them, send ("done", [(pdf, bookmarks,
    pages), ...]); or send ("error", what stopped it). What a helper process does with its part."""
    from cardtool.render.fetcher import check

    try:
        laid = []
        for html in documents:
            fetcher = fetcher_for()
            laid.append((_rendered(html, fetcher), fetcher))
            check(fetcher)
        connection.send(("pages", sum(len(document.pages) for document, _ in laid)))
        written = []
        for document, fetcher in laid:
            written.append((*_written(document), len(document.pages)))
            check(fetcher)
        connection.send(("done", written))
    except BaseException as error:  # noqa: BLE001  (sent to the parent, which raises it)
        connection.send(("error", error))


def numbers_page(head: str, tail: str, total: int) -> str:
    """A document of `total` empty pages, each with its number and the total, as the page's @page rule draws them."""
    return head + '<div style="break-before: page"></div>'.join("<div></div>" for _ in range(total)) + tail


def _numbers(head: str, tail: str, total: int, fetcher_for) -> bytes:
    """numbers_page laid out as PDF bytes."""
    from cardtool.render.fetcher import check

    fetcher = fetcher_for()
    numbers = laid_out(numbers_page(head, tail, total), fetcher)[0]
    check(fetcher)
    return numbers


def assemble(made: list, numbers: bytes) -> bytes:
    """The parts' pages in order, each with its page number drawn over it, their fonts shared, the
    bookmarks of every part nested by level; dates and /ID fixed as WeasyPrint's own PDFs have them."""
    import pikepdf

    from cardtool.render.shared_fonts import share_fonts

    sources = [pikepdf.open(BytesIO(pdf)) for pdf, _, _ in made]
    out = pikepdf.new()
    marks = []
    for source, (_, part_marks, _) in zip(sources, made):
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
