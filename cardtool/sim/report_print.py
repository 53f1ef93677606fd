"""The page a report's PDF is made from: its inline SVG charts turned into what WeasyPrint lays out fast.

WeasyPrint draws SVG text one letter at a time (a text layout per character) and styles every inline
SVG element as if it were HTML, so the charts' labels and marks cost most of a report's PDF. Here each
chart becomes a picture without its text (a data: URL, parsed by WeasyPrint's XML parser, not the HTML
one) under its labels written as absolutely placed HTML text, one line layout each. Same positions,
sizes, colours and font as the SVG (cardtool.sim.svgplot's charts are 640 units wide, shown at 640 px),
and the text stays text in the PDF. Only cardtool's own charts are expected; anything the conversion
does not recognise (a transform other than svgplot's rotation) stays in the picture as SVG text.
"""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET
from html import escape

SVG_NS = "http://www.w3.org/2000/svg"
_SVG = re.compile(r"<svg\b[^>]*>.*?</svg>", re.S)  # svgplot's charts never nest an <svg>
_ROTATE = re.compile(r"rotate\(-90 (-?[\d.]+) (-?[\d.]+)\)")
#: Where the baseline sits in a line box of line-height 1 (DejaVu Sans: ascent 0.928 em, descent 0.236 em).
BASELINE = 0.846
BOX = 400  # width of a label's box, in px: wider than any label, so the text-align places it

#: The rules the converted charts need (added to the page's stylesheet).
CSS = (".plot { position: relative; margin: 0; } .plot img { display: block; } "
       ".plot span { position: absolute; width: 400px; line-height: 1; white-space: nowrap; } "
       ".plot .start { text-align: left; } .plot .middle { text-align: center; } .plot .end { text-align: right; } "
       ".plot .up { transform: rotate(-90deg); }")


def printed_page(html: str) -> str:
    """The page with every inline SVG chart converted (see the module docstring), and its rules."""
    converted = _SVG.sub(lambda match: printed_chart(match.group(0)), html)
    return converted.replace("</style>", CSS + "\n</style>", 1) if converted != html else html


def printed_chart(svg: str) -> str:
    """One chart as a picture of its marks under its labels as placed HTML text."""
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(svg)
    width, height = root.get("width"), root.get("height")
    family = root.get("font-family", "sans-serif")
    labels = []
    for node in list(root):
        if node.tag != f"{{{SVG_NS}}}text":
            continue
        label = _label(node)
        if label is not None:
            labels.append(label)
            root.remove(node)
    picture = base64.b64encode(ET.tostring(root, encoding="utf-8")).decode("ascii")
    return (f'<div class="plot" style="width: {width}px; height: {height}px; font-family: {family}">'
            f'<img src="data:image/svg+xml;base64,{picture}" width="{width}" height="{height}" alt="">'
            + "".join(labels) + "</div>")


def _label(node: ET.Element) -> str | None:
    """A <text> of svgplot as a placed HTML span, or None to leave it in the picture."""
    x, y, size = float(node.get("x", 0)), float(node.get("y", 0)), float(node.get("font-size", 12))
    anchor = node.get("text-anchor", "start")
    turn = node.get("transform")
    if anchor not in ("start", "middle", "end") or (turn and not _ROTATE.fullmatch(turn)) or len(node):
        return None
    left = {"start": x, "middle": x - BOX / 2, "end": x - BOX}[anchor]
    top = y - BASELINE * size
    style = f"left: {left:.1f}px; top: {top:.1f}px; font-size: {size:g}px; color: {node.get('fill', '#000')}"
    classes = anchor
    if turn:  # about the anchor point, as the SVG rotation is
        classes += " up"
        style += f"; transform-origin: {x - left:.1f}px {BASELINE * size:.1f}px"
    return f'<span class="{classes}" style="{style}">{escape(node.text or "", quote=False)}</span>'
