"""Each page's font subsets made from a small font instead of the whole one: the same bytes, quicker.

A card face's PDF holds its own subset of every font it uses (render/fitting.py write_pages), so a cold
`render cards` asks HarfBuzz for about 300 subsets (a few fonts on each of 95 faces, 50 pieces and the
fitting rounds). WeasyPrint makes each from the whole font file (DejaVu Sans: 6,000 glyphs, 0.7 MB),
which is most of the time a subset takes, and copies the whole file into Python for every page.

WeasyPrint keeps glyph ids (HarfBuzz's RETAIN_GIDS), so a subset holds the same glyphs at the same ids
whatever font file it was cut from, as long as that file holds them: cut from a *source* that is itself
such a subset of the whole font (the first SPAN glyph ids, where Latin text lies, plus any glyph a page
has asked for), it is the same file, byte for byte. `quick_subsets` gives WeasyPrint a subsetting step
that swaps in that source, kept per font for the process, and grows it when a page needs a glyph it
lacks. A subset takes time by the highest glyph id of its source, so pages whose glyphs all lie below
SPAN have a source of their own that never grows. A source keeps hinting and the .notdef outline, which
each page's subset then drops or keeps as WeasyPrint decides. Trusted only after checking: the first
subset from each of a font's two sources is also made from the whole font and must be the same bytes, or
that source is not used again. The whole font file is read into Python once per font, not once per page.
"""

from __future__ import annotations

import copy

SPAN = 256  # the glyph ids every source holds: 0 .. SPAN - 1
_DECLARATIONS = """
    hb_blob_t * hb_blob_create (const char *data, unsigned int length, int mode, void *user_data,
                                void *destroy);
    hb_face_t * hb_face_create (hb_blob_t *blob, unsigned int index);
"""
_DUPLICATE = 0  # HB_MEMORY_MODE_DUPLICATE: HarfBuzz copies the bytes it is given


class _Source:
    """A font's source for page subsets: its glyph ids and its face (None once it failed the check)."""

    def __init__(self, glyphs: frozenset[int], face, checked: bool):
        self.glyphs = glyphs
        self.face = face
        self.checked = checked


class QuickSubsets:
    """The subsetting step and the whole-font reader given to weasyprint.pdf.fonts (see the docstring)."""

    def __init__(self, fonts, ffi, harfbuzz):
        self.fonts, self.ffi, self.harfbuzz = fonts, ffi, harfbuzz
        self.subset = fonts.Font._harfbuzz_subset  # WeasyPrint's own
        self.read = fonts.get_hb_object_data
        self.face_of = fonts.get_pango_font_hb_face
        self.whole: dict[int, list] = {}  # face address -> [the face, kept alive so the address stays its, bytes]
        self.sources: dict[tuple[int, bool], _Source] = {}  # (face address, any id >= SPAN) -> the source

    def address(self, pointer) -> int:
        return int(self.ffi.cast("uintptr_t", pointer))

    def pango_font_face(self, pango_font):
        """WeasyPrint's get_pango_font_hb_face, its face remembered as a whole font's (and kept alive)."""
        face = self.face_of(pango_font)
        self.whole.setdefault(self.address(face), [face, None])
        return face

    def object_data(self, hb_object, ot_color=None, glyph=None):
        """WeasyPrint's get_hb_object_data, a whole font's bytes read once."""
        held = self.whole.get(self.address(hb_object)) if ot_color is None else None
        if held is None:
            return self.read(hb_object, ot_color, glyph)
        if held[1] is None:
            held[1] = self.read(hb_object)
        return held[1]

    def subset_font(self, font, to_unicode, hinting) -> None:
        """Font._harfbuzz_subset, cut from the font's source when there is a trusted one."""
        key = self.address(font.hb_face)
        if key not in self.whole or not to_unicode:
            return self.subset(font, to_unicode, hinting)
        wanted = frozenset(to_unicode)
        tier = (key, max(wanted) >= SPAN)  # a glyph id above SPAN makes every subset of the source slower
        source = self.sources.get(tier)
        if source is not None and source.face is None:
            return self.subset(font, to_unicode, hinting)
        if source is None or not wanted <= source.glyphs:
            glyphs = (source.glyphs if source is not None else frozenset(range(SPAN))) | wanted
            source = self.sources[tier] = _Source(glyphs, self._cut(font, glyphs), source is not None and
                                                  source.checked)
        if source.face is None:
            return self.subset(font, to_unicode, hinting)
        whole, before = font.hb_face, font.file_content
        font.hb_face = source.face
        try:
            self.subset(font, to_unicode, hinting)
        finally:
            font.hb_face = whole
        if font.file_content is before:  # HarfBuzz could not subset the source: the whole font's way
            return self.subset(font, to_unicode, hinting)
        if not source.checked:  # the font's first subset is made the usual way too, and must match
            cut, font.file_content = font.file_content, before
            self.subset(font, to_unicode, hinting)
            source.checked = True
            if font.file_content != cut:
                source.face = None  # not the same bytes: this font is subset WeasyPrint's way from now on

    def _cut(self, font, glyphs: frozenset[int]):
        """A face of the whole font subset to `glyphs` (ids kept, hinting and .notdef kept), or None."""
        twin = copy.copy(font)
        twin.missing = {None: 0}  # any entry: WeasyPrint then keeps the .notdef outline
        twin.file_content = None
        self.subset(twin, dict.fromkeys(glyphs, ""), True)
        if not twin.file_content:
            return None
        blob = self.harfbuzz.hb_blob_create(twin.file_content, len(twin.file_content), _DUPLICATE,
                                            self.ffi.NULL, self.ffi.NULL)
        face = self.harfbuzz.hb_face_create(blob, 0)
        self.harfbuzz.hb_blob_destroy(blob)
        return self.ffi.gc(face, self.harfbuzz.hb_face_destroy) if face != self.ffi.NULL else None


def quick_subsets() -> QuickSubsets | None:
    """Give WeasyPrint's PDF fonts (weasyprint.pdf.fonts) the quicker subsets, once; None where its
    layout is not the one this was written against, or HarfBuzz-Subset is missing."""
    try:
        import weasyprint.pdf.fonts as fonts
        from weasyprint.text.ffi import ffi, harfbuzz, harfbuzz_subset
    except ImportError:
        return None
    current = getattr(fonts, "_cardtool_quick_subsets", None)
    if current is not None:
        return current
    needed = (getattr(fonts, "Font", None), getattr(fonts, "get_hb_object_data", None),
              getattr(fonts, "get_pango_font_hb_face", None))
    if None in needed or not hasattr(fonts.Font, "_harfbuzz_subset") or not harfbuzz_subset:
        return None
    ffi.cdef(_DECLARATIONS, override=True)
    quick = QuickSubsets(fonts, ffi, harfbuzz)
    fonts.Font._harfbuzz_subset = lambda font, to_unicode, hinting: quick.subset_font(font, to_unicode, hinting)
    fonts.get_hb_object_data = quick.object_data
    fonts.get_pango_font_hb_face = quick.pango_font_face
    fonts._cardtool_quick_subsets = quick
    return quick
