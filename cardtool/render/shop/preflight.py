"""Preflight: what a print shop's own check would reject, found in the files before they are sent.

Every check reads the written file (pikepdf for the PDF's structure, pypdfium2 for where text lies,
Pillow for PNGs) and each problem names the page and the card face on it. The checks: TrimBox and
BleedBox (the trim the card's size, the bleed all round), fonts embedded, effective image resolution,
colour space (CMYK only for a CMYK shop, no transparency in PDF/X-1a), total ink (and so rich black)
within the shop's limit, and text inside the safe area.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from cardtool.render.shop.presets import INCH, Preset

PT = 72 / INCH  # points per mm
TOLERANCE_PT = 0.5  # boxes may differ from the preset by rounding
IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
CHECKS = ("boxes", "pdf/x", "fonts", "resolution", "colour", "ink", "safe-area", "image-size")


@dataclass(frozen=True)
class Finding:
    """One problem: the check it fails, where (page from 1, card face) and what is wrong."""

    check: str
    message: str
    pages: tuple[int, ...] = ()  # the same face on several pages (copies) is one finding
    card: str = ""

    @property
    def page(self) -> int | None:
        return self.pages[0] if self.pages else None

    def format(self) -> str:
        where = (f"page{'s' if len(self.pages) > 1 else ''} {', '.join(map(str, self.pages))}" if self.pages
                 else "") + (f" ({self.card})" if self.card else "")
        return f"FAIL {self.check}: {where + ': ' if where else ''}{self.message}"


@dataclass
class Preflight:
    """The report: what was checked (check -> what it covered) and every finding."""

    target: str
    preset: Preset
    checked: dict[str, str] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    inks: dict = field(default_factory=dict, repr=False)  # image object -> its highest total ink, decoded once

    @property
    def ok(self) -> bool:
        return not self.findings

    def add(self, check: str, message: str, page: int | None = None, labels: Sequence[str] = ()) -> None:
        card = labels[page - 1] if page is not None and 0 < page <= len(labels) else ""
        for i, seen in enumerate(self.findings):
            if page is not None and (seen.check, seen.message, seen.card) == (check, message, card):
                self.findings[i] = Finding(check, message, (*seen.pages, page), card)
                return
        self.findings.append(Finding(check, message, (page,) if page is not None else (), card))

    def format(self) -> str:
        lines = [f"Preflight of {self.target} for {self.preset.title}"]
        failed = {f.check for f in self.findings}
        for check, covered in self.checked.items():
            lines.append(f"{'FAIL' if check in failed else 'ok  '} {check}: {covered}")
        lines += [f.format() for f in self.findings]
        lines.append(f"{'passed' if self.ok else 'FAILED'}: {len(self.findings)} problem(s)")
        return "\n".join(lines) + "\n"


# -- PDFs ---------------------------------------------------------------------------------------------
def check_pdf(report: Preflight, pdf: bytes, labels: Sequence[str], text: bool = True) -> None:
    """Every PDF check of one PDF; labels name the card face on each page."""
    import pikepdf

    preset = report.preset
    fonts, images = set(), 0
    with pikepdf.open(io.BytesIO(pdf)) as document:
        if preset.pdf_variant:
            _check_pdfx(report, document)
        for number, page in enumerate(document.pages, start=1):
            _check_boxes(report, page, number, labels)
            for kind, obj, ctm, extra in _walk(page.obj, page.obj.get("/Resources"), IDENTITY, set()):
                fonts |= {obj.objgen} if kind == "font" else set()
                images += kind == "image"
                _check_object(report, kind, obj, ctm, extra, number, labels)
        pages = len(document.pages)
    report.checked.setdefault("boxes", f"TrimBox {_mm(preset.card.width)} x {_mm(preset.card.height)} mm and "
                                       f"BleedBox {_mm(preset.bleed)} mm beyond it on each of {pages} pages")
    report.checked.setdefault("fonts", f"{len(fonts)} fonts, every one embedded" if fonts else
                              "no fonts (the pages are images, their text rasterised)")
    report.checked.setdefault("resolution", f"{images} placed images, each at least {preset.dpi} dpi as placed")
    report.checked.setdefault("colour", "CMYK (or grey) only, no RGB, no transparency" if preset.colour == "cmyk"
                              else "any colour space (RGB for this printer)")
    if preset.ink_limit:
        highest = max((ink for ink, _ in report.inks.values()), default=0.0)
        report.checked["ink"] = (f"total ink at most {preset.ink_limit}% in every image and fill, the highest "
                                 f"{highest:.0f}% (a rich black such as {_recipe(preset.rich_black)} is the "
                                 "deepest allowed)")
    if text:
        check_text(report, pdf, labels)


def _check_pdfx(report: Preflight, document) -> None:
    version = str(document.docinfo.get("/GTS_PDFXVersion", ""))
    intents = document.Root.get("/OutputIntents")
    report.checked["pdf/x"] = f"{report.preset.pdf_variant.upper()}: version key and an output intent with its " \
                              "ICC profile"
    if not version.startswith("PDF/X-"):
        report.add("pdf/x", "the PDF does not declare itself PDF/X (no GTS_PDFXVersion)")
    if not intents or "/DestOutputProfile" not in intents[0]:
        report.add("pdf/x", "no output intent with an ICC profile (/OutputIntents)")


def _check_boxes(report: Preflight, page, number: int, labels) -> None:
    preset = report.preset
    trim, bleed = page.obj.get("/TrimBox"), page.obj.get("/BleedBox")
    if trim is None or bleed is None:
        report.add("boxes", "no " + " and no ".join(n for n, b in (("TrimBox", trim), ("BleedBox", bleed))
                                                     if b is None), number, labels)
        return
    t, b = [float(v) for v in trim], [float(v) for v in bleed]
    width, height = t[2] - t[0], t[3] - t[1]
    if abs(width - preset.card.width * PT) > TOLERANCE_PT or abs(height - preset.card.height * PT) > TOLERANCE_PT:
        report.add("boxes", f"TrimBox is {_mm(width / PT)} x {_mm(height / PT)} mm, not the card's "
                            f"{_mm(preset.card.width)} x {_mm(preset.card.height)} mm", number, labels)
    margins = (t[0] - b[0], t[1] - b[1], b[2] - t[2], b[3] - t[3])
    if any(abs(m - preset.bleed * PT) > TOLERANCE_PT for m in margins):
        report.add("boxes", f"bleed is {', '.join(_mm(m / PT) for m in margins)} mm (left, bottom, right, top), "
                            f"not {_mm(preset.bleed)} mm all round", number, labels)


def _walk(stream, resources, ctm, seen: set) -> Iterator[tuple]:
    """(kind, object, ctm, extra) for each font, image, colour operator and graphics state drawn."""
    import pikepdf

    resources = resources if resources is not None else pikepdf.Dictionary()
    for name, font in (resources.get("/Font") or {}).items():
        yield "font", font, ctm, name
    for name, state in (resources.get("/ExtGState") or {}).items():
        yield "state", state, ctm, name
    for pattern in (resources.get("/Pattern") or {}).values():
        if pattern.objgen not in seen and pattern.get("/PatternType") == 1:
            seen.add(pattern.objgen)
            yield from _walk(pattern, pattern.get("/Resources"), _matrix(pattern.get("/Matrix")), seen)
    stack, current = [], ctm
    for operands, operator in pikepdf.parse_content_stream(stream):
        op = str(operator)
        if op == "q":
            stack.append(current)
        elif op == "Q" and stack:
            current = stack.pop()
        elif op == "cm":
            current = _multiply(tuple(float(v) for v in operands), current)
        elif op in ("rg", "RG", "k", "K", "cs", "CS", "sc", "scn", "SC", "SCN"):
            yield "colour", operands, current, op
        elif op == "Do":
            xobject = (resources.get("/XObject") or {}).get(str(operands[0]))
            if xobject is None:
                continue
            if xobject.get("/Subtype") == "/Image":
                yield "image", xobject, current, str(operands[0])
            elif xobject.get("/Subtype") == "/Form" and xobject.objgen not in seen:
                seen.add(xobject.objgen)
                inner = _multiply(_matrix(xobject.get("/Matrix")), current)
                yield from _walk(xobject, xobject.get("/Resources") or resources, inner, seen)
        elif op == "BI":
            yield "inline", operands, current, op


def _check_object(report: Preflight, kind: str, obj, ctm, extra, number: int, labels) -> None:
    preset = report.preset
    cmyk = preset.colour == "cmyk"
    if kind == "font":
        if not _embedded(obj):
            report.add("fonts", f"font {str(obj.get('/BaseFont', extra)).lstrip('/')} is not embedded", number, labels)
    elif kind == "image":
        _check_image(report, obj, ctm, number, labels)
    elif kind == "state" and cmyk and preset.pdf_variant == "pdf/x-1a":
        alpha = [float(obj.get(key, 1)) for key in ("/CA", "/ca")]
        if min(alpha) < 1 or str(obj.get("/SMask", "/None")) != "/None":
            report.add("colour", f"transparency (graphics state {extra}), which PDF/X-1a forbids", number, labels)
    elif kind == "colour" and cmyk:
        if extra in ("rg", "RG") or (extra in ("cs", "CS") and str(obj[0]) == "/DeviceRGB"):
            report.add("colour", f"an RGB colour ({extra} {' '.join(str(v) for v in obj)})", number, labels)
        elif extra in ("k", "K") and preset.ink_limit:
            ink = sum(float(v) for v in obj) * 100
            if ink > preset.ink_limit + 0.5:
                report.add("ink", f"a fill of {ink:.0f}% total ink, over the {preset.ink_limit}% limit", number, labels)
    elif kind == "inline":
        report.add("colour" if cmyk else "resolution", "an inline image, which cardtool cannot check", number, labels)


def check_art(report: Preflight, pdf: bytes, labels: Sequence[str]) -> None:
    """The effective resolution of the pictures on the vector layout a raster file is made from: art drawn
    at 100 dpi prints blurred, however many pixels the shop's file has."""
    import pikepdf

    count = 0
    with pikepdf.open(io.BytesIO(pdf)) as document:
        for number, page in enumerate(document.pages, start=1):
            for kind, obj, ctm, _ in _walk(page.obj, page.obj.get("/Resources"), IDENTITY, set()):
                if kind == "image":
                    count += 1
                    _check_resolution(report, obj, ctm, number, labels)
    report.checked["resolution"] = (f"{count} pictures on the cards, each at least {report.preset.dpi} dpi as "
                                    "drawn (on the layout the files are made from)")


def _check_resolution(report: Preflight, image, ctm, number: int, labels) -> None:
    preset = report.preset
    width, height = int(image.get("/Width", 0)), int(image.get("/Height", 0))
    placed_w, placed_h = math.hypot(ctm[0], ctm[1]) / 72, math.hypot(ctm[2], ctm[3]) / 72  # inches
    if placed_w > 0 and placed_h > 0:
        dpi = min(width / placed_w, height / placed_h)
        if dpi < preset.dpi * 0.98:
            report.add("resolution", f"an image of {width} x {height} px is placed at {_mm(placed_w * INCH)} x "
                                     f"{_mm(placed_h * INCH)} mm: {dpi:.0f} dpi, under {preset.dpi}", number, labels)


def _check_image(report: Preflight, image, ctm, number: int, labels) -> None:
    preset = report.preset
    _check_resolution(report, image, ctm, number, labels)
    if preset.colour != "cmyk":
        return
    space = _space(image.get("/ColorSpace"))
    if space not in ("/DeviceCMYK", "/DeviceGray"):
        report.add("colour", f"an image in {str(space).lstrip('/')}, not CMYK", number, labels)
        return
    if image.get("/SMask") is not None:
        report.add("colour", "an image with a transparency mask, which PDF/X-1a forbids", number, labels)
    if preset.ink_limit and space == "/DeviceCMYK":
        ink, (x, y) = _ink(report, image)
        if ink > preset.ink_limit + 0.5:
            report.add("ink", f"{ink:.0f}% total ink at pixel ({x}, {y}), over the {preset.ink_limit}% limit",
                       number, labels)


def _space(space) -> str:
    """A colour space's family: /DeviceCMYK, or for [/ICCBased stream] the device space of its N components."""
    import pikepdf

    if isinstance(space, pikepdf.Array) and len(space):
        if str(space[0]) == "/ICCBased":
            return {1: "/DeviceGray", 3: "/DeviceRGB", 4: "/DeviceCMYK"}.get(int(space[1].get("/N", 0)), "ICCBased")
        return str(space[0])
    return str(space)


def _ink(report: Preflight, image) -> tuple[float, tuple[int, int]]:
    """The highest total ink of an image, decoded once however many pages show it."""
    import pikepdf

    from cardtool.render.shop.colour import total_ink

    key = image.objgen
    if key not in report.inks:
        report.inks[key] = total_ink(pikepdf.PdfImage(image).as_pil_image())
    return report.inks[key]


def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True  # drawn by its own content streams
    if font.get("/Subtype") == "/Type0":
        font = font.DescendantFonts[0]
    descriptor = font.get("/FontDescriptor")
    return descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _matrix(values) -> tuple:
    return tuple(float(v) for v in values) if values is not None else IDENTITY


def _multiply(m, n) -> tuple:
    """m x n, PDF matrices [a b c d e f]: m applies first."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F)


# -- text in the safe area ----------------------------------------------------------------------------
def check_text(report: Preflight, pdf: bytes, labels: Sequence[str], what: str = "") -> None:
    """Every glyph inside the trim inset by the safe margin; one finding per page, naming the nearest text."""
    import pypdfium2 as pdfium

    safe = report.preset.safe * PT
    document = pdfium.PdfDocument(pdf)
    glyphs = 0
    try:
        for number in range(len(document)):
            page = document[number]
            left, bottom, right, top = page.get_trimbox()
            textpage = page.get_textpage()
            worst, where = None, None
            for i in range(textpage.count_chars()):
                char = textpage.get_text_range(i, 1)
                if not char.strip():
                    continue
                glyphs += 1
                x0, y0, x1, y1 = textpage.get_charbox(i)
                gap = min(x0 - left, right - x1, y0 - bottom, top - y1)
                if gap < safe - 0.1 and (worst is None or gap < worst):
                    worst, where = gap, i
            if worst is not None:
                snippet = _word(textpage, where) or textpage.get_text_range(where, 1)
                report.add("safe-area", f"text '{snippet}' comes {_mm(worst / PT)} mm from the cut; keep it "
                                        f"{_mm(report.preset.safe)} mm inside", number + 1, labels)
    finally:
        document.close()
    report.checked["safe-area"] = (f"{glyphs} glyphs at least {_mm(report.preset.safe)} mm inside the trim"
                                   + (f" ({what})" if what else ""))


def _word(textpage, index: int) -> str:
    """The line of text (up to 40 characters) around a character of a text page, for naming it."""
    x0, y0, x1, y1 = textpage.get_charbox(index)
    line = " ".join(textpage.get_text_bounded(left=x0 - 60, bottom=y0, right=x1 + 60, top=y1).split())
    return line if len(line) <= 40 else line[:39] + "…"


# -- PNG files ----------------------------------------------------------------------------------------
def check_pngs(report: Preflight, images: Sequence[tuple[str, bytes]]) -> None:
    """Each (name, PNG bytes): the shop's exact pixel size, RGB, and the dpi it is meant for."""
    from PIL import Image

    width, height = report.preset.pixels
    for number, (name, data) in enumerate(images, start=1):
        with Image.open(io.BytesIO(data)) as picture:
            if picture.size != (width, height):
                report.add("image-size", f"{name} is {picture.width} x {picture.height} px, not {width} x {height}")
            if picture.mode != "RGB":
                report.add("colour", f"{name} is {picture.mode}, not RGB")
            dpi = picture.info.get("dpi", (0, 0))
            if round(dpi[0]) != report.preset.dpi:
                report.add("resolution", f"{name} says {round(dpi[0])} dpi, not {report.preset.dpi}")
    report.checked["image-size"] = f"{len(images)} PNG files of {width} x {height} px, RGB, {report.preset.dpi} dpi"


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _recipe(black) -> str:
    return "C{} M{} Y{} K{}".format(*black) if black else "none"
