"""A laid-out face in the build's cache: taken back only when the entry passes every check, stored with
what overflowed in it (render/cards.py lays the faces out; render/cache.py keeps the entries)."""

from __future__ import annotations

from cardtool.render.context import Frame
from cardtool.render.fitting import Overflow


def cached_face(cache, key: str, face_key: str, frame: Frame) -> tuple[bytes, list[Overflow]] | None:
    """A face's PDF and what overflowed in it, from the build's cache, if the entry passes every check:
    its blob matches its digest, it is one page of the face's size, its findings name this face."""
    entry = cache.get("face", key)
    if entry is None:
        return None
    pdf = cache.read(entry.blobs.get("pdf", ""))
    try:
        found = [Overflow(face_key, str(o["field"]), str(o["part"]), float(o["fill"]))
                 for o in entry.meta["overflows"] if o["key"] == face_key]
        ok = pdf is not None and len(found) == len(entry.meta["overflows"]) and _one_page(pdf, frame)
    except (KeyError, TypeError, ValueError):
        ok = False
    if not ok:
        cache.damaged(key)
        return None
    return pdf, found


def _one_page(pdf: bytes, frame: Frame) -> bool:
    """Whether the bytes are a PDF of one page of the face's size (read by qpdf, which is quick)."""
    from io import BytesIO

    import pikepdf

    try:
        with pikepdf.open(BytesIO(pdf)) as document:
            box = document.pages[0].mediabox if len(document.pages) == 1 else None
            size = (float(box[2]) - float(box[0]), float(box[3]) - float(box[1])) if box is not None else None
    except (pikepdf.PdfError, ValueError, KeyError, TypeError, AttributeError, IndexError):
        return False
    wanted = (frame.full_width * 72 / 25.4, frame.full_height * 72 / 25.4)
    return size is not None and abs(size[0] - wanted[0]) < 0.5 and abs(size[1] - wanted[1]) < 0.5


def keep_face(cache, key: str, pdf: bytes, found: list[Overflow]) -> None:
    cache.store("face", key, {"overflows": [{"key": o.key, "field": o.field, "part": o.part, "fill": o.fill}
                                            for o in found]}, {"pdf": cache.put(pdf)})
