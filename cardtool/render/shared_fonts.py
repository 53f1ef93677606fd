"""Fonts shared between the card faces of one PDF: each face brings its own subset of every font it
uses (render/font_merge.py says why); here the subsets of one font are replaced, in every face that
uses them, by one font whose program is their union, whose widths (/W) and text map (/ToUnicode) are
the union of theirs. A sheet PDF of 95 faces then carries each font once instead of 95 times.

Only WeasyPrint's Type0 fonts over an embedded TrueType program (CIDFontType2, Identity-H, glyph ids
as character ids) are merged; any other font, or one whose parts do not read as expected, is kept as
the face brought it. The result is decided by the set of faces alone, so a sheet put together from
faces kept in a build's cache is the same, byte for byte, as one from faces laid out just now.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

import pikepdf

from cardtool.render.font_merge import NotMergeable, TrueTypeSubset, Union

_BFCHAR = re.compile(rb"beginbfchar(.*?)endbfchar", re.S)
_PAIR = re.compile(rb"<([0-9a-fA-F]{4})>\s*<([0-9a-fA-F]+)>")
_CMAP_HEAD = (b"/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo\n"
              b"<< /Registry (Adobe)\n/Ordering (UCS)\n/Supplement 0\n>> def\n/CMapName /Adobe-Identity-UCS def\n"
              b"/CMapType 2 def\n1 begincodespacerange\n<0000> <ffff>\nendcodespacerange\n")
_CMAP_TAIL = b"endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend"


@dataclass
class _Use:
    """One face's subset of a font: where it is referred to, its program, widths and text map."""

    resources: pikepdf.Dictionary
    name: str
    font: pikepdf.Dictionary
    subset: TrueTypeSubset
    widths: dict[int, float]
    text: dict[int, bytes]


def _widths(array) -> dict[int, float]:
    """A /W array ([first [w ...]] and [first last w] runs) as glyph id -> width."""
    items, widths, i = list(array), {}, 0
    while i < len(items):
        first = int(items[i])
        if isinstance(items[i + 1], pikepdf.Array):
            for offset, width in enumerate(items[i + 1]):
                widths[first + offset] = float(width)
            i += 2
        else:
            for gid in range(first, int(items[i + 1]) + 1):
                widths[gid] = float(items[i + 2])
            i += 3
    return widths


def _text_map(stream) -> dict[int, bytes]:
    data = stream.read_bytes()
    if b"bfrange" in data:
        raise NotMergeable("a text map with ranges")
    return {int(gid, 16): text.lower() for block in _BFCHAR.findall(data) for gid, text in _PAIR.findall(block)}


def _use(resources, name: str, font) -> _Use | None:
    try:
        if font.get("/Subtype") != "/Type0" or font.get("/Encoding") != "/Identity-H":
            return None
        cid = font.DescendantFonts[0]
        descriptor = cid.FontDescriptor
        if cid.get("/Subtype") != "/CIDFontType2" or cid.get("/CIDToGIDMap") != "/Identity" \
                or "/FontFile2" not in descriptor:
            return None
        return _Use(resources, name, font, TrueTypeSubset.of(descriptor.FontFile2.read_bytes()),
                    _widths(cid.W), _text_map(font.ToUnicode))
    except (NotMergeable, struct.error, AttributeError, KeyError, IndexError, TypeError, ValueError, pikepdf.PdfError):
        return None


def share_fonts(pdf: pikepdf.Pdf, holders: list) -> None:
    """Give the fonts of every holder (a page or form XObject of `pdf`, in a fixed order) one merged font
    per original font."""
    groups: dict[tuple[str, bytes], list[_Group]] = {}
    for holder in holders:
        resources = holder.get("/Resources")
        fonts = resources.get("/Font") if resources is not None else None
        if not isinstance(fonts, pikepdf.Dictionary):
            continue
        for name in sorted(fonts.keys()):
            use = _use(fonts, name, fonts[name])
            if use is None:
                continue
            clusters = groups.setdefault((str(use.font.BaseFont), use.subset.identity()), [])
            cluster = next((c for c in clusters if c[0].agrees(use.subset)), None)
            if cluster is None:
                clusters.append(cluster := (Union(), []))
            cluster[0].add(use.subset, frozenset(use.widths))
            cluster[1].append(use)
    for clusters in groups.values():
        for union, uses in clusters:
            try:
                merged = _merged_font(pdf, union, uses)
            except (NotMergeable, struct.error, AttributeError, KeyError, IndexError, TypeError, ValueError):
                continue  # the faces keep the fonts they brought
            for use in uses:
                use.resources[use.name] = merged


def _merged_font(pdf: pikepdf.Pdf, union: Union, uses: list[_Use]):
    first = min(uses, key=lambda use: use.subset.order).font
    program = union.font()
    widths: dict[int, float] = {}
    text: dict[int, bytes] = {}
    for use in sorted(uses, key=lambda u: sorted(u.text.items())):  # same result whatever the faces' order
        widths.update(use.widths)
        for gid, chars in use.text.items():
            text.setdefault(gid, chars)
    old = first.DescendantFonts[0].FontDescriptor
    boxes = [[float(v) for v in use.font.DescendantFonts[0].FontDescriptor.FontBBox] for use in uses]
    descriptor = pikepdf.Dictionary({key: old[key] for key in old.keys() if key != "/FontFile2"})
    descriptor.FontBBox = pikepdf.Array([min(b[0] for b in boxes), min(b[1] for b in boxes),
                                         max(b[2] for b in boxes), max(b[3] for b in boxes)])
    stream = pikepdf.Stream(pdf, program)
    stream.Length1 = len(program)
    descriptor.FontFile2 = pdf.make_indirect(stream)
    cid = pikepdf.Dictionary({key: first.DescendantFonts[0][key] for key in first.DescendantFonts[0].keys()
                              if key not in ("/W", "/FontDescriptor")})
    cid.FontDescriptor = pdf.make_indirect(descriptor)
    cid.W = _width_array(widths)
    font = pikepdf.Dictionary({key: first[key] for key in first.keys() if key not in ("/DescendantFonts", "/ToUnicode")})
    font.DescendantFonts = pikepdf.Array([pdf.make_indirect(cid)])
    font.ToUnicode = pdf.make_indirect(pikepdf.Stream(pdf, _cmap(text)))
    return pdf.make_indirect(font)


def _width_array(widths: dict[int, float]) -> pikepdf.Array:
    items, run, start = [], [], None
    for gid in sorted(widths):
        width = int(widths[gid]) if widths[gid] == int(widths[gid]) else round(widths[gid], 3)
        if start is not None and gid == start + len(run):
            run.append(width)
            continue
        if run:
            items += [start, pikepdf.Array(run)]
        start, run = gid, [width]
    if run:
        items += [start, pikepdf.Array(run)]
    return pikepdf.Array(items)


def _cmap(text: dict[int, bytes]) -> bytes:
    body, pairs = [], sorted(text.items())
    for start in range(0, len(pairs), 100):
        chunk = pairs[start:start + 100]
        body.append(f"{len(chunk)} beginbfchar\n".encode())
        body += [b"<%04x> <%s>\n" % (gid, chars) for gid, chars in chunk]
        body.append(b"endbfchar\n")
    return _CMAP_HEAD + b"".join(body) + _CMAP_TAIL
